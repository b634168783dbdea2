// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Sampling every CPU with a perf_event program: cycles, or the timer. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include "diag.h"
#include "sampling.h"

static int open_sampler(int cpu, unsigned long hz, bool cycles)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = cycles ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE,
		.config = cycles ? PERF_COUNT_HW_CPU_CYCLES :
				   PERF_COUNT_SW_CPU_CLOCK,
		.freq = 1,
		.sample_freq = hz,
	};

	return syscall(__NR_perf_event_open, &attr, -1, cpu, -1,
		       PERF_FLAG_FD_CLOEXEC);
}

/* The kernel's highest sampling rate, or 0 when it cannot be read. */
static unsigned long max_sample_rate(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "re");
	unsigned long rate = 0;

	if (f) {
		if (fscanf(f, "%lu", &rate) != 1)
			rate = 0;
		fclose(f);
	}
	return rate;
}

/* Attach PROG to a sampler on each CPU: cycles first unless TIMER. */
static int attach(struct bpf_program *prog, unsigned long hz, bool timer,
		  struct bpfkit_sampling *out)
{
	int ncpus = libbpf_num_possible_cpus(), cpu, fd, err, attached = 0;
	bool cycles = !timer;

	if (ncpus < 0) {
		bpfkit_fail("count the CPUs", ncpus);
		return ncpus;
	}
	out->links = calloc(ncpus, sizeof(*out->links));
	if (!out->links) {
		bpfkit_fail("attach the sampling program", -ENOMEM);
		return -ENOMEM;
	}
	out->ncpus = ncpus;
	for (cpu = 0; cpu < ncpus; cpu++) {
		fd = open_sampler(cpu, hz, cycles);
		/* No PMU (a VM, or no cycles event): the timer, on every CPU. */
		if (fd < 0 && cycles && errno != ENODEV && !attached) {
			cycles = false;
			fd = open_sampler(cpu, hz, cycles);
		}
		if (fd < 0 && errno == ENODEV)
			continue; /* an offline CPU */
		if (fd < 0) {
			err = -errno;
			if (err == -EINVAL && max_sample_rate() &&
			    hz > max_sample_rate())
				bpfkit_error(
					"-F %lu is above this kernel's limit of %lu Hz (kernel.perf_event_max_sample_rate); give a lower -F",
					hz, max_sample_rate());
			else
				bpfkit_fail("open a perf event to sample with",
					    err);
			return err;
		}
		out->links[cpu] = bpf_program__attach_perf_event(prog, fd);
		if (!out->links[cpu]) {
			err = -errno;
			close(fd);
			bpfkit_fail("attach the sampling program", err);
			return err;
		}
		attached++;
	}
	out->event = cycles ? "cycles" : "cpu-clock";
	return 0;
}

int bpfkit_attach_sampling(struct bpf_program *prog, unsigned long hz,
			   struct bpfkit_sampling *out)
{
	return attach(prog, hz, false, out);
}

int bpfkit_attach_timer_sampling(struct bpf_program *prog, unsigned long hz,
				 struct bpfkit_sampling *out)
{
	return attach(prog, hz, true, out);
}

void bpfkit_detach_sampling(struct bpfkit_sampling *s)
{
	int cpu;

	for (cpu = 0; cpu < s->ncpus; cpu++)
		bpf_link__destroy(s->links[cpu]);
	free(s->links);
	s->links = NULL;
	s->ncpus = 0;
}
