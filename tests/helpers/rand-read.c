// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * rand-read DEVICE N SEED: N O_DIRECT reads of 4 KiB from DEVICE at blocks
 * drawn from SEED (xorshift), none starting where the one before ended:
 * every read after the first is a random one.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/fs.h>

#define BS 4096

int main(int argc, char **argv)
{
	unsigned long long size, blocks, block, prev = -1ULL, x;
	unsigned long n, i;
	void *buf;
	int fd;

	if (argc != 4) {
		fprintf(stderr, "usage: rand-read DEVICE N SEED\n");
		return 2;
	}
	n = strtoul(argv[2], NULL, 10);
	x = strtoull(argv[3], NULL, 10) | 1;
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &size)) {
		perror("rand-read: open");
		return 1;
	}
	blocks = size / BS;
	if (blocks < 3 || posix_memalign(&buf, BS, BS)) {
		fprintf(stderr, "rand-read: %s is too small\n", argv[1]);
		return 1;
	}
	for (i = 0; i < n; i++) {
		do {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			block = x % blocks;
		} while (block == prev + 1);
		if (pread(fd, buf, BS, block * BS) != BS) {
			perror("rand-read: pread");
			return 1;
		}
		prev = block;
	}
	return 0;
}
