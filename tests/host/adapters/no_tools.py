"""An adapter file that forgot to define ``TOOLS``."""

TOOL = {"misspelt": print}
