"""The Builders' web files (its plugin's ``web_dir``), served at ``/static/games/middle-ages/``."""
