"""Kingdom Builder's web files (its plugin's ``web_dir``), served at ``/static/games/kingdom/``."""
