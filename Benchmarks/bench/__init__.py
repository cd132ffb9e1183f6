"""`make bench`'s figures (P1–P5), each measured next to its floor; see Benchmarks/README.md."""
