"""Kingdom Builder as a plugin (the entry point ``kingdom`` of ``builders.games``)."""

from __future__ import annotations

from builders.core.plugins import GamePlugin

PLUGIN = GamePlugin(
    name="kingdom",
    title="Kingdom Builder",
    game="builders.kingdom.game:KingdomBuilder",
    view="builders.kingdom.view:VIEW",
    setup_schema="builders.kingdom.schema:KingdomSetup",
    ai="builders.ai.kit_kingdom:KIT",
    rl="builders.rl.kit_kingdom:KIT",
    profile="builders.kingdom.profile:favourites",
    web_table="games/kingdom/kingdom.js",
    web_guide="games/kingdom/kingdom_guide.js",
    web_rules="games/kingdom/kingdom_rules.js",
    web_lobby="games/kingdom/kingdom_lobby.js",
    web_style="games/kingdom/kingdom.css",
    web_dir="builders.kingdom.web",
    colour="#2f6fdb",
    commands="builders.commands.kingdom:register",
    bench="builders.kingdom.bench:run",
    native=True,
    native_bench="builders.kingdom.native_bench:run",
    modules=(
        "builders.ai.kit_kingdom",
        "builders.ai.eval_kingdom",
        "builders.ai.planner_kingdom",
        "builders.rl.kingdom",
        "builders.rl.kit_kingdom",
        "builders.rl.spiel_kingdom",
        "builders.commands.kingdom",
        "builders.commands.play",
    ),
)
