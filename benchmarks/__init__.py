"""Speed and weight benchmarks (never timed tests): see benchmarks/README.md."""
