"""The Builders: Middle Ages as a plugin (the entry point ``middle-ages`` of ``builders.games``)."""

from __future__ import annotations

from builders.core.plugins import GamePlugin

PLUGIN = GamePlugin(
    name="middle-ages",
    title="The Builders: Middle Ages",
    game="builders.middle_ages.game:MiddleAges",
    view="builders.middle_ages.view:VIEW",
    ai="builders.ai.kit_middle_ages:KIT",
    rl="builders.rl.kit_middle_ages:KIT",
    profile="builders.middle_ages.profile:favourites",
    web_table="games/middle-ages/middle_ages.js",
    web_guide="games/middle-ages/middle_ages_guide.js",
    web_rules="games/middle-ages/middle_ages_rules.js",
    web_lobby="games/middle-ages/middle_ages_lobby.js",
    web_style="games/middle-ages/middle_ages.css",
    web_dir="builders.middle_ages.web",
    colour="#e0512b",
    commands="builders.commands.middle_ages:register",
    bench="builders.middle_ages.bench:run",
    native=True,
    native_bench="builders.middle_ages.native_bench:bench",
    modules=(
        "builders.ai.kit_middle_ages",
        "builders.ai.eval_middle_ages",
        "builders.ai.planner_middle_ages",
        "builders.rl.middle_ages",
        "builders.rl.kit_middle_ages",
        "builders.rl.spiel_middle_ages",
        "builders.commands.middle_ages",
    ),
)
