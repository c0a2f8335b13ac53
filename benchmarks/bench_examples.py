"""The worked examples of the repository's rulebooks, run bounded (one child process per book,
:mod:`rulebook.isolation`) against run in the checking process: CPU of the parent and its
children, the best of ``--runs``, taken in turns, as a ratio (never a timed test).

Measured (issue 30.3, 143 examples in 5 books): about 0.15 s in the process, 0.30 s bounded
(ratio 2.0; 19 planechase examples whose records do not pickle are run again in the parent),
against about 1 s of CPU for the whole of ``rulebook check``.

Run: .venv/bin/python -m benchmarks.bench_examples [--runs 5]
"""

from __future__ import annotations

import argparse
import resource

from rulebook.examples import engine_of, run_books, run_example
from rulebook.isolation import Bounds
from rulebook.loader import load_chosen
from rulebook.project import read_project


def cpu() -> float:
    """CPU seconds of this process and of its children that ended."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    books = list(load_chosen([read_project().rules]).values())
    engines = {book.id: engine_of(book) for book in books}

    def in_process() -> None:
        for book in books:
            for rule, example in book.examples():
                run_example(book, rule, example, engines[book.id])

    def bounded() -> None:
        run_books(books, bounds=Bounds())

    best: dict[str, float] = {}
    for _ in range(args.runs):
        for name, run in (("in the process", in_process), ("bounded", bounded)):
            start = cpu()
            run()
            best[name] = min(best.get(name, float("inf")), cpu() - start)
    examples = sum(1 for book in books for _ in book.examples())
    for name, seconds in best.items():
        print(f"{name:>15}: {seconds:.3f} s CPU for {examples} examples in {len(books)} books")
    print(f"ratio bounded / in the process: {best['bounded'] / best['in the process']:.2f}")


if __name__ == "__main__":
    main()
