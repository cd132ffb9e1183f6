#define _GNU_SOURCE
#include "writable_data.h"

#if defined(__linux__) && defined(__LP64__)

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14 */
#endif

/// Tables larger than these are not this binary's: nothing is done.
enum { max_sections = 4096, max_names = 1 << 20 };

static int executable_bias(struct dl_phdr_info *info, size_t size, void *bias) {
    (void)size;
    *(uintptr_t *)bias = (uintptr_t)info->dlpi_addr;
    return 1; /* the first object listed is the executable */
}

static int read_exactly(int fd, void *into, size_t count, off_t offset) {
    return pread(fd, into, count, offset) == (ssize_t)count;
}

/// The whole pages inside [start, start + size): a partial page at either end may belong to a
/// neighbouring mapping that is not writable.
static long populate(uintptr_t start, uint64_t size) {
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    uintptr_t first = (start + page - 1) & ~(page - 1);
    uintptr_t end = (start + size) & ~(page - 1);
    if (end <= first) return 0;
    return madvise((void *)first, end - first, MADV_POPULATE_WRITE) == 0 ? (long)(end - first) : 0;
}

long writable_data_prefault(void) {
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return 0;
    long made = 0;
    Elf64_Shdr *sections = NULL;
    char *names = NULL;
    Elf64_Ehdr header;
    if (!read_exactly(fd, &header, sizeof header, 0) || memcmp(header.e_ident, ELFMAG, SELFMAG) != 0
        || header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_shentsize != sizeof(Elf64_Shdr)
        || header.e_shnum == 0 || header.e_shnum > max_sections || header.e_shstrndx >= header.e_shnum)
        goto done;
    sections = malloc(sizeof(Elf64_Shdr) * header.e_shnum);
    if (!sections || !read_exactly(fd, sections, sizeof(Elf64_Shdr) * header.e_shnum, (off_t)header.e_shoff)) goto done;
    const Elf64_Shdr *table = &sections[header.e_shstrndx];
    if (table->sh_size == 0 || table->sh_size > max_names) goto done;
    names = malloc(table->sh_size + 1);
    if (!names || !read_exactly(fd, names, table->sh_size, (off_t)table->sh_offset)) goto done;
    names[table->sh_size] = '\0';
    uintptr_t bias = 0;
    dl_iterate_phdr(executable_bias, &bias);
    for (unsigned index = 0; index < header.e_shnum; index++) {
        const Elf64_Shdr *section = &sections[index];
        if (section->sh_name >= table->sh_size || section->sh_type != SHT_NOBITS
            || (section->sh_flags & (SHF_ALLOC | SHF_WRITE)) != (SHF_ALLOC | SHF_WRITE))
            continue;
        if (strcmp(names + section->sh_name, ".bss") == 0) made += populate(bias + section->sh_addr, section->sh_size);
    }
done:
    free(names);
    free(sections);
    close(fd);
    return made;
}

int writable_data_supported(void) { return 1; }

static void *prefault_thread(void *unused) {
    (void)unused;
    writable_data_prefault();
    return NULL;
}

int writable_data_prefault_in_background(void) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, prefault_thread, NULL) != 0) return 0;
    pthread_detach(thread);
    return 1;
}

#else

long writable_data_prefault(void) { return 0; }

int writable_data_supported(void) { return 0; }

int writable_data_prefault_in_background(void) { return 0; }

#endif
