"""Random full games of The Builders: Middle Ages (same as ``builders bench middle-ages``)."""

from builders.middle_ages.bench import run

if __name__ == "__main__":
    run(runs=5, games=200)
