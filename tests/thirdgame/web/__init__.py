"""Pig's web files (its plugin's ``web_dir``): the server serves this folder at ``/static/games/pig/``."""
