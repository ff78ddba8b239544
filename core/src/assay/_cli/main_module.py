"""``python -m assay._cli.main_module``: the ``assay`` command without the console script."""

from assay._cli.main import main

if __name__ == "__main__":
    main()
