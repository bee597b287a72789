"""Templates compiled ahead of time by `python -m collector.compile_templates`; do not edit."""
