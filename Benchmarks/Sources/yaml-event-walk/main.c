// yaml-event-walk: the baseline of the load + lint benchmark (docs/PERFORMANCE.md).
//
// Parses each YAML file with the system libyaml, calling yaml_parser_parse until
// STREAM_END and counting events; builds nothing. Each file is read into memory and parsed
// from there, as JumpFormsLoader does. Arguments are files, or folders whose .yaml/.yml files
// (recursively, sorted) are walked.
//
//   yaml-event-walk [--iterations N] [--warmup N] [--quiet] PATH...
//
// Prints the file, byte and event counts, the wall time of each iteration (read + parse of
// every file; warm-up iterations are run first and not counted) and the best and median, in
// milliseconds. Exit status 1 when a file cannot be read or parsed.
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <yaml.h>

typedef struct {
    char **items;
    size_t count;
    size_t capacity;
} PathList;

static void add_path(PathList *list, const char *path) {
    if (list->count == list->capacity) {
        list->capacity = list->capacity ? list->capacity * 2 : 64;
        list->items = realloc(list->items, list->capacity * sizeof(char *));
        if (!list->items) { perror("realloc"); exit(2); }
    }
    list->items[list->count++] = strdup(path);
}

static int compare_strings(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int has_yaml_suffix(const char *name) {
    size_t length = strlen(name);
    return (length > 5 && strcmp(name + length - 5, ".yaml") == 0) ||
           (length > 4 && strcmp(name + length - 4, ".yml") == 0);
}

static void collect(PathList *list, const char *path) {
    struct stat info;
    if (stat(path, &info) != 0) {
        fprintf(stderr, "yaml-event-walk: %s: %s\n", path, strerror(errno));
        exit(2);
    }
    if (!S_ISDIR(info.st_mode)) {
        add_path(list, path);
        return;
    }
    DIR *dir = opendir(path);
    if (!dir) {
        fprintf(stderr, "yaml-event-walk: %s: %s\n", path, strerror(errno));
        exit(2);
    }
    PathList here = {0};
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        size_t size = strlen(path) + strlen(entry->d_name) + 2;
        char *child = malloc(size);
        snprintf(child, size, "%s/%s", path, entry->d_name);
        struct stat childInfo;
        if (stat(child, &childInfo) == 0 && (S_ISDIR(childInfo.st_mode) || has_yaml_suffix(entry->d_name))) {
            add_path(&here, child);
        }
        free(child);
    }
    closedir(dir);
    qsort(here.items, here.count, sizeof(char *), compare_strings);
    for (size_t i = 0; i < here.count; i++) {
        collect(list, here.items[i]);
        free(here.items[i]);
    }
    free(here.items);
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/// Reads and parses one file; returns the number of events, or -1 on a read or parse error.
static long walk(const char *path, size_t *bytes_out) {
    FILE *file = fopen(path, "rb");
    if (!file) {
        fprintf(stderr, "yaml-event-walk: %s: %s\n", path, strerror(errno));
        return -1;
    }
    struct stat info;
    if (fstat(fileno(file), &info) != 0) { fclose(file); return -1; }
    size_t size = (size_t)info.st_size;
    unsigned char *buffer = malloc(size ? size : 1);
    size_t got = fread(buffer, 1, size, file);
    fclose(file);
    if (got != size) { free(buffer); return -1; }
    *bytes_out += size;

    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) { free(buffer); return -1; }
    yaml_parser_set_input_string(&parser, buffer, size);
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
    long events = 0;
    yaml_event_t event;
    for (;;) {
        if (!yaml_parser_parse(&parser, &event)) {
            fprintf(stderr, "yaml-event-walk: %s:%lu:%lu: %s\n", path, (unsigned long)parser.problem_mark.line + 1,
                    (unsigned long)parser.problem_mark.column + 1, parser.problem ? parser.problem : "parse error");
            events = -1;
            break;
        }
        events++;
        int done = event.type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
        if (done) break;
    }
    yaml_parser_delete(&parser);
    free(buffer);
    return events;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int iterations = 1;
    int warmup = 0;
    int quiet = 0;
    PathList files = {0};
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--iterations") == 0 && i + 1 < argc) {
            iterations = atoi(argv[++i]);
            if (iterations < 1) iterations = 1;
        } else if (strcmp(argv[i], "--warmup") == 0 && i + 1 < argc) {
            warmup = atoi(argv[++i]);
            if (warmup < 0) warmup = 0;
        } else if (strcmp(argv[i], "--quiet") == 0) {
            quiet = 1;
        } else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf("usage: yaml-event-walk [--iterations N] [--warmup N] [--quiet] PATH...\n");
            return 0;
        } else {
            collect(&files, argv[i]);
        }
    }
    if (files.count == 0) {
        fprintf(stderr, "usage: yaml-event-walk [--iterations N] [--warmup N] [--quiet] PATH...\n");
        return 2;
    }
    double *times = malloc(sizeof(double) * (size_t)iterations);
    long events = 0;
    size_t bytes = 0;
    int failed = 0;
    for (int iteration = -warmup; iteration < iterations; iteration++) {
        events = 0;
        bytes = 0;
        double start = now_ms();
        for (size_t i = 0; i < files.count; i++) {
            long count = walk(files.items[i], &bytes);
            if (count < 0) failed = 1; else events += count;
        }
        double elapsed = now_ms() - start;
        if (iteration < 0) continue;
        times[iteration] = elapsed;
        if (!quiet) printf("iteration %d: %.3f ms\n", iteration + 1, elapsed);
    }
    qsort(times, (size_t)iterations, sizeof(double), compare_doubles);
    double median = iterations % 2 ? times[iterations / 2] : (times[iterations / 2 - 1] + times[iterations / 2]) / 2;
    printf("files %zu bytes %zu events %ld\n", files.count, bytes, events);
    printf("best %.3f ms median %.3f ms iterations %d\n", times[0], median, iterations);
    return failed ? 1 : 0;
}
