"""Random full Kingdom Builder games on the standard workload (medians of 5 runs)."""

from builders.kingdom.bench import run

if __name__ == "__main__":
    run(runs=5, games=200)
