// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * The symbolizer: kallsyms for the kernel, libdwfl for processes, perf
 * maps for JIT code, and one cache of every address already symbolized.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include "symbols.h"

#define KERNEL_PID ((pid_t)-1) /* the cache's key for kernel addresses */
#define UNKNOWN "[unknown]"

/* A named address range: a kernel symbol, an ELF one, a perf map entry. */
struct range_sym {
	__u64 addr;
	__u64 size; /* 0: up to the next one */
	const char *name;
	const char *module;
	int rank; /* of names at one address, the highest is taken */
};

/* Sorted symbols and the strings they point into. */
struct sym_table {
	struct range_sym *syms;
	size_t n, cap;
	char **strs;
	size_t nstrs, strs_cap;
};

/*
 * One file's functions at the file's own addresses, sorted, shared by
 * every process that maps it (libdwfl searches a module's symbols one by
 * one at each lookup, and would read them again for each process).
 */
struct file_syms {
	char *key; /* the build-id in hex, or the path without one */
	struct sym_table table;
	struct file_syms *next;
};

/* What is known of one process: its maps, and its JIT symbols. */
struct proc {
	pid_t pid;
	Dwfl *dwfl; /* NULL: its maps could not be read */
	bool jit_loaded;
	struct sym_table jit;
};

/* One cached address. */
struct cached {
	pid_t pid;
	__u64 addr;
	struct bpfkit_frame frame;
};

struct bpfkit_syms {
	struct bpfkit_syms_opts opts;
	bool kernel_loaded;
	struct sym_table kernel;
	/* open addressing, power-of-two sizes; a NULL slot is free */
	struct proc **procs;
	size_t nprocs, procs_cap;
	struct cached **cache;
	size_t ncached, cache_cap;
	struct file_syms *files;
	unsigned long long ns;
};

/* A module whose ELF file could not be read: no symbols. */
static struct file_syms no_file_syms;

static char *debuginfo_path = "/usr/lib/debug";

static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

static size_t hash(pid_t pid, __u64 addr)
{
	__u64 h = (addr ^ ((__u64)(__u32)pid << 47)) * 0x9e3779b97f4a7c15ULL;

	return h ^ (h >> 29);
}

/* A copy of S kept by TABLE until it is freed; NULL when out of memory. */
static const char *table_strdup(struct sym_table *t, const char *s)
{
	char **strs;

	if (t->nstrs == t->strs_cap) {
		size_t cap = t->strs_cap ? t->strs_cap * 2 : 256;

		strs = realloc(t->strs, cap * sizeof(*strs));
		if (!strs)
			return NULL;
		t->strs = strs;
		t->strs_cap = cap;
	}
	t->strs[t->nstrs] = strdup(s);
	return t->strs[t->nstrs] ? t->strs[t->nstrs++] : NULL;
}

static int table_add(struct sym_table *t, __u64 addr, __u64 size,
		     const char *name, const char *module, int rank)
{
	struct range_sym *syms;

	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 4096;

		syms = realloc(t->syms, cap * sizeof(*syms));
		if (!syms)
			return -ENOMEM;
		t->syms = syms;
		t->cap = cap;
	}
	t->syms[t->n++] = (struct range_sym){ addr, size, name, module, rank };
	return 0;
}

static int cmp_range_sym(const void *a, const void *b)
{
	const struct range_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->rank - y->rank;
}

/* The symbol holding ADDR: the last one starting at or before it. */
static const struct range_sym *table_find(const struct sym_table *t, __u64 addr)
{
	size_t lo = 0, hi = t->n;
	const struct range_sym *s;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	s = &t->syms[lo - 1];
	if (s->size && addr >= s->addr + s->size)
		return NULL;
	return s;
}

static void table_free(struct sym_table *t)
{
	size_t i;

	for (i = 0; i < t->nstrs; i++)
		free(t->strs[i]);
	free(t->strs);
	free(t->syms);
	memset(t, 0, sizeof(*t));
}

/*
 * The kernel's text symbols, "ADDR TYPE NAME [MODULE]", sorted. Without
 * privileges kallsyms shows every address as 0: those are left out, and
 * kernel frames are then "[unknown]".
 */
static void load_kallsyms(struct bpfkit_syms *s)
{
	const char *path = s->opts.kallsyms ?: "/proc/kallsyms";
	char line[512], name[256], module[128], type;
	const char *kname = NULL, *kmod = NULL, *core;
	unsigned long long addr;
	FILE *f;
	int n;

	s->kernel_loaded = true;
	f = fopen(path, "re");
	if (!f)
		return;
	core = table_strdup(&s->kernel, "kernel");
	while (core && fgets(line, sizeof(line), f)) {
		n = sscanf(line, "%llx %c %255s [%127[^]]]", &addr, &type, name,
			   module);
		if (n < 3 || !addr || !strchr("tTwW", type))
			continue;
		if (n == 4) {
			if (!kmod || strcmp(kmod, module))
				kmod = table_strdup(&s->kernel, module);
		} else {
			kmod = core;
		}
		kname = table_strdup(&s->kernel, name);
		if (!kname || !kmod ||
		    table_add(&s->kernel, addr, 0, kname, kmod, type == 'T'))
			break;
	}
	fclose(f);
	if (s->kernel.n)
		qsort(s->kernel.syms, s->kernel.n, sizeof(*s->kernel.syms),
		      cmp_range_sym);
}

/* PID's perf map, "START SIZE NAME" in hex, as JIT runtimes write it. */
static void load_perf_map(struct bpfkit_syms *s, struct proc *p)
{
	char path[256], line[1024];
	unsigned long long start, size;
	const char *name;
	int off;
	FILE *f;

	p->jit_loaded = true;
	snprintf(path, sizeof(path), "%s/perf-%d.map",
		 s->opts.perf_map_dir ?: "/tmp", p->pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%llx %llx %n", &start, &size, &off) != 2 ||
		    !line[off])
			continue;
		name = table_strdup(&p->jit, line + off);
		if (!name ||
		    table_add(&p->jit, start, size ?: 1, name, NULL, 0))
			break;
	}
	fclose(f);
	if (p->jit.n)
		qsort(p->jit.syms, p->jit.n, sizeof(*p->jit.syms),
		      cmp_range_sym);
}

struct bpfkit_syms *bpfkit_syms_new(const struct bpfkit_syms_opts *opts)
{
	struct bpfkit_syms *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	if (opts)
		s->opts = *opts;
	/*
	 * Debug info from this machine only: libdwfl would otherwise ask the
	 * debuginfod servers DEBUGINFOD_URLS names, over the network, for
	 * each file without it, in the middle of a report.
	 */
	unsetenv("DEBUGINFOD_URLS");
	s->procs_cap = 64;
	s->cache_cap = 1024;
	s->procs = calloc(s->procs_cap, sizeof(*s->procs));
	s->cache = calloc(s->cache_cap, sizeof(*s->cache));
	if (!s->procs || !s->cache) {
		bpfkit_syms_free(s);
		errno = ENOMEM;
		return NULL;
	}
	return s;
}

static void free_frame(struct bpfkit_frame *f)
{
	struct bpfkit_frame *into = (struct bpfkit_frame *)f->inlined_into;

	free((char *)f->name);
	free((char *)f->module);
	free((char *)f->file);
	free((char *)f->label);
	if (into) {
		free_frame(into);
		free(into);
	}
}

void bpfkit_syms_free(struct bpfkit_syms *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->procs_cap && s->procs; i++) {
		if (!s->procs[i])
			continue;
		if (s->procs[i]->dwfl)
			dwfl_end(s->procs[i]->dwfl);
		table_free(&s->procs[i]->jit);
		free(s->procs[i]);
	}
	for (i = 0; i < s->cache_cap && s->cache; i++) {
		if (!s->cache[i])
			continue;
		free_frame(&s->cache[i]->frame);
		free(s->cache[i]);
	}
	while (s->files) {
		struct file_syms *next = s->files->next;

		table_free(&s->files->table);
		free(s->files->key);
		free(s->files);
		s->files = next;
	}
	free(s->procs);
	free(s->cache);
	table_free(&s->kernel);
	free(s);
}

/* The slot of PID's entry, or of the free slot it would take. */
static size_t proc_slot(struct proc **procs, size_t cap, pid_t pid)
{
	size_t i = hash(pid, 0) & (cap - 1);

	while (procs[i] && procs[i]->pid != pid)
		i = (i + 1) & (cap - 1);
	return i;
}

static int grow_procs(struct bpfkit_syms *s)
{
	size_t cap = s->procs_cap * 2, i;
	struct proc **procs = calloc(cap, sizeof(*procs));

	if (!procs)
		return -ENOMEM;
	for (i = 0; i < s->procs_cap; i++)
		if (s->procs[i])
			procs[proc_slot(procs, cap, s->procs[i]->pid)] =
				s->procs[i];
	free(s->procs);
	s->procs = procs;
	s->procs_cap = cap;
	return 0;
}

/* PID's entry, made (and its maps read) the first time; NULL: no memory. */
static struct proc *get_proc(struct bpfkit_syms *s, pid_t pid, int *err)
{
	struct proc *p;
	size_t i;

	*err = 0;
	i = proc_slot(s->procs, s->procs_cap, pid);
	if (s->procs[i])
		return s->procs[i];
	if ((s->nprocs + 1) * 2 > s->procs_cap) {
		*err = grow_procs(s);
		if (*err)
			return NULL;
		i = proc_slot(s->procs, s->procs_cap, pid);
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		*err = -ENOMEM;
		return NULL;
	}
	p->pid = pid;
	p->dwfl = dwfl_begin(&proc_callbacks);
	if (p->dwfl) {
		dwfl_report_begin(p->dwfl);
		*err = -dwfl_linux_proc_report(p->dwfl, pid);
		if (dwfl_report_end(p->dwfl, NULL, NULL) || *err) {
			dwfl_end(p->dwfl);
			p->dwfl = NULL;
			*err = *err ?: -EINVAL;
		}
	} else {
		*err = -ENOMEM;
	}
	s->procs[i] = p;
	s->nprocs++;
	return p;
}

int bpfkit_syms_add_pid(struct bpfkit_syms *s, pid_t pid)
{
	int err;

	return get_proc(s, pid, &err) ? err : err ?: -ENOMEM;
}

static size_t cache_slot(struct cached **cache, size_t cap, pid_t pid,
			 __u64 addr)
{
	size_t i = hash(pid, addr) & (cap - 1);

	while (cache[i] && (cache[i]->pid != pid || cache[i]->addr != addr))
		i = (i + 1) & (cap - 1);
	return i;
}

static void grow_cache(struct bpfkit_syms *s)
{
	size_t cap = s->cache_cap * 2, i;
	struct cached **cache = calloc(cap, sizeof(*cache));

	/* Out of memory: keep the table as it is, fuller. */
	if (!cache)
		return;
	for (i = 0; i < s->cache_cap; i++)
		if (s->cache[i])
			cache[cache_slot(cache, cap, s->cache[i]->pid,
					 s->cache[i]->addr)] = s->cache[i];
	free(s->cache);
	s->cache = cache;
	s->cache_cap = cap;
}

static const char *basename_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* libstdc++'s demangler (the C++ ABI's), as elfutils' eu-stack uses it. */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

/* NAME demangled if it is a C++ (Itanium ABI) name; else a copy of it. */
static char *demangled(const char *name)
{
	char *plain;
	int status;

	if (strncmp(name, "_Z", 2))
		return strdup(name);
	plain = __cxa_demangle(name, NULL, NULL, &status);
	return status == 0 && plain ? plain : strdup(name);
}

/*
 * A frame's strings are the cache's own copies, from NAME (demangled) and
 * MODULE.
 */
static void set_frame(struct bpfkit_frame *f, const char *name,
		      const char *module, const char *file)
{
	f->name = name ? demangled(name) : NULL;
	f->module = module ? strdup(module) : NULL;
	f->file = file ? strdup(file) : NULL;
	if (f->name)
		f->label = strdup(f->name);
	else if (!module || asprintf((char **)&f->label, UNKNOWN " (%s)",
				     basename_of(module)) < 0)
		f->label = NULL; /* lookup() makes it "[unknown]" */
}

static void resolve_kernel(struct bpfkit_syms *s, __u64 addr,
			   struct bpfkit_frame *f)
{
	const struct range_sym *sym;

	if (!s->kernel_loaded)
		load_kallsyms(s);
	f->kind = BPFKIT_FRAME_KERNEL;
	sym = table_find(&s->kernel, addr);
	if (!sym) {
		f->offset = addr;
		set_frame(f, NULL, NULL, NULL);
		return;
	}
	f->offset = addr - sym->addr;
	set_frame(f, sym->name, sym->module, NULL);
}

/* The key of MOD's file: its build-id, or its path when it has none. */
static char *file_key(Dwfl_Module *mod, const char *path)
{
	const unsigned char *id;
	GElf_Addr vaddr;
	char *key;
	int len, i;

	len = dwfl_module_build_id(mod, &id, &vaddr);
	if (len <= 0)
		return strdup(path);
	key = malloc(2 * len + 1);
	for (i = 0; key && i < len; i++)
		sprintf(key + 2 * i, "%02x", id[i]);
	return key;
}

/* MOD's file's functions, read for the first process that maps the file. */
static struct file_syms *read_file_syms(struct bpfkit_syms *s, Dwfl_Module *mod,
					GElf_Addr bias, const char *path)
{
	struct file_syms *fs;
	const char *name;
	GElf_Addr addr;
	GElf_Word shndx;
	GElf_Sym sym;
	int n, i, type;
	char *key = file_key(mod, path);

	if (!key)
		return &no_file_syms;
	for (fs = s->files; fs; fs = fs->next) {
		if (!strcmp(fs->key, key)) {
			free(key);
			return fs;
		}
	}
	fs = calloc(1, sizeof(*fs));
	if (!fs) {
		free(key);
		return &no_file_syms;
	}
	fs->key = key;
	n = dwfl_module_getsymtab(mod);
	for (i = 1; i < n; i++) {
		name = dwfl_module_getsym_info(mod, i, &sym, &addr, &shndx,
					       NULL, NULL);
		type = GELF_ST_TYPE(sym.st_info);
		/* Untyped symbols mark places (_end, _edata), not code. */
		if (!name || !*name || shndx == SHN_UNDEF ||
		    (type != STT_FUNC && type != STT_GNU_IFUNC))
			continue;
		/* A global name over a weak one over a local one. */
		name = table_strdup(&fs->table, name);
		/* Versioned names in .symtab: "read@@GLIBC_2.2.5" is read. */
		if (name && strchr(name + 1, '@'))
			*strchr(name + 1, '@') = '\0';
		if (!name ||
		    table_add(&fs->table, addr - bias, sym.st_size, name, NULL,
			      GELF_ST_BIND(sym.st_info) == STB_GLOBAL ? 2 :
			      GELF_ST_BIND(sym.st_info) == STB_WEAK   ? 1 :
									0))
			break;
	}
	if (fs->table.n)
		qsort(fs->table.syms, fs->table.n, sizeof(*fs->table.syms),
		      cmp_range_sym);
	fs->next = s->files;
	s->files = fs;
	return fs;
}

/*
 * The function holding ADDR in MOD, a module of a process, from its
 * file's table (kept in the module's user data); NULL when none does.
 */
static const struct range_sym *module_sym(struct bpfkit_syms *s,
					  Dwfl_Module *mod, const char *path,
					  __u64 addr, __u64 *offset)
{
	const struct range_sym *sym;
	struct file_syms *fs;
	GElf_Addr bias = 0;
	void **data;

	dwfl_module_info(mod, &data, NULL, NULL, NULL, NULL, NULL, NULL);
	if (!dwfl_module_getelf(mod, &bias))
		return NULL;
	fs = *data ?: read_file_syms(s, mod, bias, path);
	*data = fs;
	sym = table_find(&fs->table, addr - bias);
	if (sym)
		*offset = addr - bias - sym->addr;
	return sym;
}

/* A DIE's attribute ATTR as a number; 0 when it has none. */
static Dwarf_Word die_udata(Dwarf_Die *die, unsigned int attr)
{
	Dwarf_Attribute a;
	Dwarf_Word v = 0;

	if (!dwarf_attr(die, attr, &a) || dwarf_formudata(&a, &v))
		return 0;
	return v;
}

/*
 * With lines on: the functions inlined at ADDR, as eu-stack -i shows them,
 * from the inlined_subroutine scopes of ADDR's compile unit, innermost
 * first. F (the symbol table's function, at ADDR's line) comes to name the
 * innermost inlined function; its inlined_into, a new frame, takes the
 * function's name over, at the call's file and line, and so on outwards.
 */
static void add_inlined(struct bpfkit_frame *f, Dwfl_Module *mod, __u64 addr)
{
	struct bpfkit_frame *at = f, *into;
	Dwarf_Die *cu, *scopes = NULL;
	Dwarf_Files *files = NULL;
	const char *call_file, *inl;
	Dwarf_Addr bias;
	int n, i;

	cu = dwfl_module_addrdie(mod, addr, &bias);
	if (!cu)
		return;
	n = dwarf_getscopes(cu, addr - bias, &scopes);
	if (n > 0 && dwarf_getsrcfiles(cu, &files, NULL))
		files = NULL;
	for (i = 0; i < n; i++) {
		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		into = calloc(1, sizeof(*into));
		if (!into)
			break;
		call_file = files ? dwarf_filesrc(files,
						  die_udata(&scopes[i],
							    DW_AT_call_file),
						  NULL, NULL) :
				    NULL;
		*into = (struct bpfkit_frame){
			.name = at->name,
			.module = f->module ? strdup(f->module) : NULL,
			.offset = f->offset,
			.file = call_file ? strdup(call_file) : NULL,
			.line = die_udata(&scopes[i], DW_AT_call_line),
			.kind = f->kind,
			.label = at->label ?: strdup(UNKNOWN),
		};
		inl = dwarf_diename(&scopes[i]);
		at->name = demangled(inl ?: UNKNOWN);
		at->label = at->name ? strdup(at->name) : NULL;
		at->inlined_into = into;
		at = into;
	}
	free(scopes);
}

static void resolve_user(struct bpfkit_syms *s, pid_t pid, __u64 addr,
			 struct bpfkit_frame *f)
{
	const char *name = NULL, *module = NULL, *file = NULL;
	const struct range_sym *jit, *sym;
	Dwfl_Module *mod = NULL;
	Dwarf_Addr start = 0;
	struct proc *p;
	int err;

	f->kind = BPFKIT_FRAME_USER;
	p = get_proc(s, pid, &err);
	/*
	 * JIT code first: a perf map names only JIT code, which the module
	 * ranges libdwfl makes from the maps can span (node maps a copy of
	 * its builtins next to its JIT code, so "node" spans both).
	 */
	if (p && !p->jit_loaded)
		load_perf_map(s, p);
	jit = p ? table_find(&p->jit, addr) : NULL;
	if (jit) {
		f->kind = BPFKIT_FRAME_JIT;
		f->offset = addr - jit->addr;
		set_frame(f, jit->name, NULL, NULL);
		return;
	}
	if (p && p->dwfl)
		mod = dwfl_addrmodule(p->dwfl, addr);
	if (!mod) {
		f->offset = addr;
		set_frame(f, NULL, NULL, NULL);
		return;
	}
	module = dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL,
				  NULL);
	sym = module_sym(s, mod, module, addr, &f->offset);
	name = sym ? sym->name : NULL;
	if (!sym)
		f->offset = addr - start;
	if (s->opts.lines) {
		Dwfl_Line *line = dwfl_module_getsrc(mod, addr);

		if (line)
			file = dwfl_lineinfo(line, NULL, &f->line, NULL, NULL,
					     NULL);
	}
	set_frame(f, name, module, file);
	if (s->opts.lines)
		add_inlined(f, mod, addr);
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static const struct bpfkit_frame *lookup(struct bpfkit_syms *s, pid_t pid,
					 __u64 addr)
{
	static const struct bpfkit_frame no_memory = { .label = UNKNOWN };
	unsigned long long t0 = now_ns();
	struct cached *c;
	size_t i;

	i = cache_slot(s->cache, s->cache_cap, pid, addr);
	if (s->cache[i])
		return &s->cache[i]->frame;
	c = calloc(1, sizeof(*c));
	if (!c)
		return &no_memory;
	c->pid = pid;
	c->addr = addr;
	if (pid == KERNEL_PID)
		resolve_kernel(s, addr, &c->frame);
	else
		resolve_user(s, pid, addr, &c->frame);
	if (!c->frame.label)
		c->frame.label = strdup(UNKNOWN);
	if (!c->frame.label) {
		free_frame(&c->frame);
		free(c);
		return &no_memory;
	}
	if ((s->ncached + 1) * 2 > s->cache_cap) {
		grow_cache(s);
		i = cache_slot(s->cache, s->cache_cap, pid, addr);
	}
	/* A table that could not grow keeps one slot free for lookups. */
	if (s->ncached + 2 > s->cache_cap) {
		free_frame(&c->frame);
		free(c);
		return &no_memory;
	}
	s->cache[i] = c;
	s->ncached++;
	s->ns += now_ns() - t0;
	return &c->frame;
}

const struct bpfkit_frame *bpfkit_syms_kernel(struct bpfkit_syms *s, __u64 addr)
{
	return lookup(s, KERNEL_PID, addr);
}

const struct bpfkit_frame *bpfkit_syms_user(struct bpfkit_syms *s, pid_t pid,
					    __u64 addr)
{
	return lookup(s, pid, addr);
}

void bpfkit_syms_stats(const struct bpfkit_syms *s,
		       struct bpfkit_syms_stats *st)
{
	st->addrs = s->ncached;
	st->ns = s->ns;
}

bool bpfkit_tracing_frame(const struct bpfkit_frame *f)
{
	static const char *const prefixes[] = { "bpf_prog_", "bpf_trace_run",
						"__traceiter_",
						"__bpf_trace_" };
	size_t i;

	for (i = 0; f->name && i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(f->name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}
