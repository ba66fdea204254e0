"""`python -m core` runs the workbench CLI."""

from core.cli import main

main()
