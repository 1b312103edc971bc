"""Writes incrbyfloat.tsv: `SET k A` then `INCRBYFLOAT k B` on a real
Redis, for random A and B (seeded), one `A<TAB>B<TAB>answer` line each.
src/script/long_double.rs's tests read it.

    python3 tests/redis/incrbyfloat.py PORT > tests/redis/incrbyfloat.tsv
"""
import random
import subprocess
import sys

random.seed(7)


def number():
    k = random.random()
    if k < 0.3:
        return f"{random.uniform(-1e6, 1e6):.{random.randint(0, 6)}f}"
    if k < 0.5:
        return repr(random.uniform(-1000, 1000))
    if k < 0.6:
        return f"{random.randint(1, 99)}e{random.randint(-40, 40)}"
    if k < 0.7:
        return f"{random.random():.17f}"
    if k < 0.8:
        return str(random.randint(-10**20, 10**20))
    if k < 0.9:
        return f"{random.uniform(-1, 1) * 10 ** random.randint(-20, 25):.{random.randint(1, 20)}g}"
    return random.choice(["0.1", "0.2", "0.3", "-0.1", "1.1", "2.675", "1e-4950", "3.6e-4951",
                          "1e-4952", "1.18e4932", "1.2e4932", "99.95", "-0.05", "0.000001",
                          "inf", "abc", " 5", "1e", "-0", "5.", ".5"])


cases = [(number(), number()) for _ in range(1000)]
commands = "".join(f"SET c{i} \"{a}\"\nINCRBYFLOAT c{i} \"{b}\"\n" for i, (a, b) in enumerate(cases))
port = sys.argv[1] if len(sys.argv) > 1 else "6379"
lines = subprocess.run(["redis-cli", "-p", port], input=commands, capture_output=True,
                       text=True, check=True).stdout.split("\n")
answers = [line for line in lines if line != ""][1::2]
assert len(answers) == len(cases)
for (a, b), answer in zip(cases, answers):
    if len(answer) <= 60:
        print(f"{a}\t{b}\t{answer}")
