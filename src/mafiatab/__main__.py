"""`python -m mafiatab` runs the command line."""

from mafiatab.cli import main

main()
