"""``python -m scoregate.cli``: the ``scoregate`` command."""

from scoregate.cli import main

if __name__ == "__main__":
    main()
