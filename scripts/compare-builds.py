#!/usr/bin/env python3
"""Times commands side by side, round-robin, so that a machine's slow and fast spells fall on
all of them alike (docs/PERFORMANCE.md: each step of a change against the build before it).

    scripts/compare-builds.py RUNS "COMMAND A" "COMMAND B" ...

Each command runs twice to warm up, then RUNS times, the order reversed every other round.
Prints, per command, the median, minimum and first quartile of the wall time and the median
and minimum CPU time (user + system of the child) in milliseconds. Commands are split on
spaces and run without a shell; their output is discarded and their exit status ignored
(`locales check` exits 1 on findings). Example:

    C="locales check --config .bench/locales/jump.yaml --format json"
    scripts/compare-builds.py 40 "/tmp/before/jump-forms $C" ".build-bench/release/jump-forms $C"
"""
import resource
import statistics
import subprocess
import sys
import time


def once(command):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command.split(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000
    return wall, cpu


def main():
    if len(sys.argv) < 3 or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit("usage: compare-builds.py RUNS COMMAND [COMMAND ...]")
    runs, commands = int(sys.argv[1]), sys.argv[2:]
    walls = {command: [] for command in commands}
    cpus = {command: [] for command in commands}
    for command in commands:
        try:
            for _ in range(2):
                once(command)
        except OSError as error:
            sys.exit(f"compare-builds.py: cannot run '{command}': {error.strerror} ({error.filename})")
    for round_number in range(runs):
        order = commands if round_number % 2 == 0 else list(reversed(commands))
        for command in order:
            wall, cpu = once(command)
            walls[command].append(wall)
            cpus[command].append(cpu)
    for command in commands:
        wall = sorted(walls[command])
        print(f"wall median {statistics.median(wall):6.1f} min {wall[0]:6.1f} p25 {wall[len(wall) // 4]:6.1f}"
              f" | cpu median {statistics.median(cpus[command]):6.1f} min {min(cpus[command]):6.1f} | {command}")


if __name__ == "__main__":
    main()
