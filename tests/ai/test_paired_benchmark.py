"""benchmarks/ai_paired.py: a variant of a strength match's first agent against the agent as it is,
on the same games."""

from __future__ import annotations

import json

import pytest

from builders.ai.eval_middle_ages import WEIGHT_NAMES
from tests.ai.helpers import benchmark

paired = benchmark("ai_paired")


def test_a_setting_is_parsed_with_its_own_type():
    assert paired.parse_set("KB_FRONTIER=0.5", "kingdom") == ("KB_FRONTIER", 0.5)
    assert paired.parse_set("TILE_ACTIONS=40", "kingdom") == ("TILE_ACTIONS", 40)
    assert paired.parse_set("MA_COIN=0.2", "middle-ages") == ("MA_COIN", 0.2)
    assert paired.parse_set("MA_LAST_TURN=false", "middle-ages") == ("MA_LAST_TURN", False)


@pytest.mark.parametrize(
    "text, game, message",
    [
        (
            "eval_kingdom.KB_FRONTIER=0.5",
            "kingdom",
            "--set 'eval_kingdom.KB_FRONTIER=0.5': write NAME=VALUE, e.g. KB_FRONTIER=0.5",
        ),
        ("KB_FRONTIER", "kingdom", "--set 'KB_FRONTIER': write NAME=VALUE, e.g. KB_FRONTIER=0.5"),
        ("KB_NOTHING=1", "kingdom", "--set 'KB_NOTHING=1': unknown weight KB_NOTHING (choose from KB_TILE_BASE, "),
        ("KB_FRONTIER=1", "middle-ages", "--set 'KB_FRONTIER=1': unknown weight KB_FRONTIER (choose from MA_COIN, "),
        ("TILE_ACTIONS=2.5", "kingdom", "--set 'TILE_ACTIONS=2.5': '2.5' is not a whole number"),
        (
            "TILE_ACTIONS=0",
            "kingdom",
            "--set 'TILE_ACTIONS=0': weight TILE_ACTIONS must be a whole number of at least 1, not 0",
        ),
        ("KB_FRONTIER=lots", "kingdom", "--set 'KB_FRONTIER=lots': 'lots' is not a number"),
        ("KB_FRONTIER=inf", "kingdom", "--set 'KB_FRONTIER=inf': 'inf' is not a finite number"),
        ("MA_PACE=0", "middle-ages", "--set 'MA_PACE=0': weight MA_PACE must be a number above 0, not 0.0"),
        ("MA_LAST_TURN=1", "middle-ages", "--set 'MA_LAST_TURN=1': '1' is not true or false"),
    ],
)
def test_a_bad_setting_is_refused_with_the_reason(text, game, message):
    with pytest.raises(ValueError) as e:
        paired.parse_set(text, game)
    assert str(e.value).startswith(message) and "\n" not in str(e.value)
    assert message.endswith(", ") or str(e.value) == message


def test_the_variant_s_settings_are_in_the_manifest_and_reach_its_agent(tmp_path, capsys):
    """``--set MA_ACTION=1.5``: the arm's manifest holds the settings as a JSON object, and the
    variant's games are those of a medium agent made with them (the other seat at the defaults)."""
    from builders.ai.tournament import derive_seed, seating

    args = [
        "--match",
        "ma-medium-easy",
        "--games",
        "2",
        "--set",
        "MA_ACTION=1.5",
        "--workers",
        "1",
        "--dir",
        str(tmp_path),
    ]
    assert paired.main(args) == 0
    capsys.readouterr()
    manifest = json.loads((tmp_path / "ma-medium-easy__medium+MA_ACTION=1.5.manifest.json").read_text())
    (run,) = manifest["runs"]
    assert run["agents"]["first"] == "medium" and run["agents"]["first_settings"] == {"MA_ACTION": 1.5}
    settings = run["agents"]["first_settings"]
    game = paired.get_game("middle-ages")
    for g, record in sorted(_arm(tmp_path, "ma-medium-easy__medium+MA_ACTION=1.5.jsonl").items()):
        seats = seating(2, 2, g % 2)
        state = game.new_state(paired.setup_of(game, 2, g, 2))
        agents = [
            paired.parse_agent("medium" if a == 0 else "easy").make(
                derive_seed("agent", paired.SEED, g, seat), "middle-ages", settings if a == 0 else None
            )
            for seat, a in enumerate(seats)
        ]
        assert agents[seats.index(0)].weights == {"MA_ACTION": 1.5}
        while not state.is_over():
            state.apply(agents[state.current_player].act(state))
        assert list(state.result().scores) == record["scores"]


def _arm(directory, name):
    return {json.loads(line)["index"]: json.loads(line) for line in (directory / name).read_text().splitlines()}


def test_a_variant_that_changes_nothing_plays_the_same_games(tmp_path, capsys):
    """The default value set for the variant: each of the 4 games as the base played it, and a second
    run plays nothing again."""
    args = [
        "--match",
        "ma-medium-easy",
        "--games",
        "4",
        "--set",
        "MA_ACTION=0.25",
        "--workers",
        "1",
        "--dir",
        str(tmp_path),
    ]
    assert paired.main(args) == 0
    out = capsys.readouterr()
    assert out.out.strip().endswith("difference +0.00 +- 0.00 a game (0 of 4 games ended with other scores)")
    base = _arm(tmp_path, "ma-medium-easy__medium.jsonl")
    same = _arm(tmp_path, "ma-medium-easy__medium+MA_ACTION=0.25.jsonl")
    assert sorted(base) == [0, 1, 2, 3] and base == same
    assert paired.main(args) == 0
    assert capsys.readouterr().err.count(": 0 games played") == 2


def test_a_changed_weight_is_compared_game_by_game(tmp_path, capsys):
    """Actions valued at 1.5 VP instead of 0.25 for the variant (medium of The Builders against easy):
    the report's numbers are those of the two files, game by game."""
    args = [
        "--match",
        "ma-medium-easy",
        "--games",
        "6",
        "--set",
        "MA_ACTION=1.5",
        "--workers",
        "1",
        "--dir",
        str(tmp_path),
    ]
    assert paired.main(args) == 0
    line = capsys.readouterr().out.strip()
    base = _arm(tmp_path, "ma-medium-easy__medium.jsonl")
    variant = _arm(tmp_path, "ma-medium-easy__medium+MA_ACTION=1.5.jsonl")
    assert sorted(variant) == list(range(6))
    leads = {}
    for arm, games in (("base", base), ("variant", variant)):
        leads[arm] = [
            g["scores"][g["seats"].index(0)] - g["scores"][1 - g["seats"].index(0)] for _, g in sorted(games.items())
        ]
        assert [g["seats"] for _, g in sorted(games.items())] == [[0, 1], [1, 0]] * 3
    c = paired.compare(base, variant)
    diffs = [v - b for b, v in zip(leads["base"], leads["variant"])]
    assert c["difference"] == pytest.approx(sum(diffs) / 6)
    assert c["base_wins"] == sum(1.0 if x > 0 else 0.5 if x == 0 else 0.0 for x in leads["base"])
    assert c["changed"] == sum(1 for i in range(6) if base[i]["scores"] != variant[i]["scores"]) > 0
    assert f"difference {c['difference']:+.2f} +- {c['error']:.2f} a game ({c['changed']} of 6 games" in line


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--games", "3"], "error: --games must be a positive multiple of 2 (the seat rotations), not 3"),
        ([], "error: the variant is the base: give --variant, --set or --reseed"),
        (["--reseed", "-1"], "error: --reseed must be 0 (the base's seeds) or more, not -1"),
        (
            ["--set", "MA_PACE=3", "--null", "1,x"],
            "error: --null takes whole numbers of at least 1 separated by commas, not '1,x'",
        ),
        (
            ["--set", "MA_PACE=3", "--null", "0"],
            "error: --null takes whole numbers of at least 1 separated by commas, not '0'",
        ),
        (["--variant", "hard:depth=9"], "error: option depth of hard must be 1, 2 or 3, not 9"),
        (["--set", "MA_PACE"], "error: --set 'MA_PACE': write NAME=VALUE, e.g. KB_FRONTIER=0.5"),
        (
            ["--set", "KB_FRONTIER=1"],
            "error: --set 'KB_FRONTIER=1': unknown weight KB_FRONTIER (choose from " + ", ".join(WEIGHT_NAMES) + ")",
        ),
        (
            ["--set", "MA_PACE=3", "--base", "medium", "--variant", "random"],
            "error: agent random of middle-ages takes no settings",
        ),
    ],
)
def test_bad_arguments_are_refused_and_nothing_is_played(tmp_path, capsys, extra, message):
    assert paired.main(["--match", "ma-medium-easy", "--dir", str(tmp_path), *extra]) == 2
    assert capsys.readouterr().err.strip() == message
    assert not list(tmp_path.iterdir())


def test_other_agents_take_the_other_seats(tmp_path, capsys):
    """``--others random``: medium of The Builders against random play instead of the match's easy,
    each arm in its own file; random play scores almost nothing."""
    args = [
        "--match",
        "ma-medium-easy",
        "--games",
        "2",
        "--others",
        "random",
        "--set",
        "MA_ACTION=0.25",
        "--workers",
        "1",
        "--dir",
        str(tmp_path),
    ]
    assert paired.main(args) == 0
    assert capsys.readouterr().out.startswith("ma-medium-easy against random, games 0-1: base medium: 2 wins")
    base = _arm(tmp_path, "ma-medium-easy__medium__vs_random.jsonl")
    assert base == _arm(tmp_path, "ma-medium-easy__medium+MA_ACTION=0.25__vs_random.jsonl")
    assert all(g["scores"][g["seats"].index(1)] <= 2 for g in base.values())
    assert (
        paired.main(
            ["--match", "ma-medium-easy", "--others", "random,random", "--set", "MA_ACTION=1", "--dir", str(tmp_path)]
        )
        == 2
    )
    assert capsys.readouterr().err.strip() == "error: 3 agents do not fit in 2 seats"


def test_a_null_arm_gives_only_the_first_agent_other_seeds(tmp_path, capsys):
    """``--reseed 1`` without another change: Kingdom Builder's medium, which draws nothing that
    decides its play, plays the same 4 games against random play as in the base arm (so random play
    kept its seeds); easy, whose noise comes from its seed, plays other games."""
    common = [
        "--match",
        "kb-easy-random",
        "--games",
        "4",
        "--others",
        "random",
        "--reseed",
        "1",
        "--workers",
        "1",
        "--dir",
        str(tmp_path),
    ]
    assert paired.main([*common, "--base", "medium", "--variant", "medium"]) == 0
    line = capsys.readouterr().out.strip()
    assert "variant medium reseed 1: " in line and line.endswith("(0 of 4 games ended with other scores)")
    base = _arm(tmp_path, "kb-easy-random__medium__vs_random.jsonl")
    assert sorted(base) == [0, 1, 2, 3] and _arm(tmp_path, "kb-easy-random__medium+reseed=1__vs_random.jsonl") == base
    assert paired.main([*common, "--base", "easy", "--variant", "easy"]) == 0
    easy = _arm(tmp_path, "kb-easy-random__easy__vs_random.jsonl")
    other = _arm(tmp_path, "kb-easy-random__easy+reseed=1__vs_random.jsonl")
    assert [g["seats"] for _, g in sorted(other.items())] == [g["seats"] for _, g in sorted(easy.items())]
    assert sum(1 for i in range(4) if easy[i]["scores"] != other[i]["scores"]) == 4


def test_a_variant_is_compared_with_the_mean_of_the_base_and_its_null_arms(tmp_path, capsys):
    """``--null 1,2``: the two null arms of easy are played and kept in their files, and the second
    line of the report is the variant's lead less the mean of the three runs' leads, game by game."""
    args = [
        "--match",
        "kb-easy-random",
        "--games",
        "4",
        "--others",
        "random",
        "--base",
        "easy",
        "--set",
        "KB_FRONTIER=0.5",
        "--null",
        "1,2",
        "--workers",
        "1",
        "--dir",
        str(tmp_path),
    ]
    assert paired.main(args) == 0
    out = capsys.readouterr()
    assert out.err.count(": 4 games played") == 4
    first, second = out.out.strip().splitlines()
    runs = [_arm(tmp_path, f"kb-easy-random__easy{k}__vs_random.jsonl") for k in ("", "+reseed=1", "+reseed=2")]
    variant = _arm(tmp_path, "kb-easy-random__easy+KB_FRONTIER=0.5__vs_random.jsonl")
    assert runs[1] != runs[0] and runs[2] != runs[1]
    lead = lambda g: g["scores"][g["seats"].index(0)] - g["scores"][1 - g["seats"].index(0)]  # noqa: E731
    diffs = [lead(variant[i]) - sum(lead(run[i]) for run in runs) / 3 for i in range(4)]
    m = paired.compare_runs(runs, variant)
    assert m["games"] == 4 and m["difference"] == pytest.approx(sum(diffs) / 4)
    won = lambda x: 1.0 if x > 0 else 0.5 if x == 0 else 0.0  # noqa: E731
    assert m["runs_wins"] == pytest.approx(sum(won(lead(run[i])) for run in runs for i in range(4)) / 3)
    assert second == (
        f"against the mean of the base and its null arms 1, 2 ({m['runs_wins']:g} wins, "
        f"lead {m['runs_lead']:+.2f}): difference {m['difference']:+.2f} +- {m['error']:.2f} "
        f"a game over 4 games"
    )
    assert first.startswith("kb-easy-random against random, games 0-3: base easy: ")
    assert paired.main(args) == 0
    assert capsys.readouterr().err.count(": 0 games played") == 4


def test_cards_keep_only_the_games_whose_setup_holds_them(tmp_path, capsys):
    """``--cards citizens``: of the first 12 games of kb-easy-random only those whose three cards hold
    citizens are played, in both arms, and the report says so."""
    chosen = paired.with_cards("kb-easy-random", 12, 2, ["citizens"])
    game = paired.get_game("kingdom")
    every = [game.random_setup(2, paired.derive_seed("setup", paired.SEED, g // 2))["cards"] for g in range(12)]
    assert chosen == [g for g in range(12) if "citizens" in every[g]]
    assert 0 < len(chosen) < 12
    args = [
        "--match",
        "kb-easy-random",
        "--games",
        "12",
        "--others",
        "random",
        "--base",
        "medium",
        "--set",
        "KB_CITIZENS_HALF=1.0",
        "--cards",
        "citizens",
        "--workers",
        "1",
        "--dir",
        str(tmp_path),
    ]
    assert paired.main(args) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("kb-easy-random against random, games 0-11 with citizens: base medium: ")
    assert line.endswith(f"of {len(chosen)} games ended with other scores)")
    base = _arm(tmp_path, "kb-easy-random__medium__vs_random.jsonl")
    assert sorted(base) == chosen
    assert all("citizens" in g["breakdown"][0] for g in base.values())


@pytest.mark.parametrize(
    "match, cards, message",
    [
        (
            "kb-easy-random",
            "citizen",
            "error: --cards: unknown card 'citizen' (choose from fishermen, miners, merchants, "
            "workers, discoverers, knights, hermits, lords, citizens, farmers)",
        ),
        ("ma-medium-easy", "citizens", "error: --cards is for Kingdom Builder matches only"),
    ],
)
def test_bad_cards_are_refused_and_nothing_is_played(tmp_path, capsys, match, cards, message):
    assert (
        paired.main(
            [
                "--match",
                match,
                "--set",
                "KB_FRONTIER=1" if match.startswith("kb") else "MA_PACE=3",
                "--cards",
                cards,
                "--dir",
                str(tmp_path),
            ]
        )
        == 2
    )
    assert capsys.readouterr().err.strip() == message
    assert not list(tmp_path.iterdir())


def test_seat_keeps_only_the_games_with_the_first_agent_in_that_seat(tmp_path, capsys):
    """``--seat 1``: of the first 8 games of ma-easy-random only those that seat the first agent
    second (the odd ones) are played, in both arms, and the report says so."""
    args = [
        "--match",
        "ma-easy-random",
        "--games",
        "8",
        "--others",
        "random",
        "--base",
        "medium",
        "--set",
        "MA_PACE=2.5",
        "--seat",
        "1",
        "--workers",
        "1",
        "--dir",
        str(tmp_path),
    ]
    assert paired.main(args) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("ma-easy-random against random, games 0-7 at seat 1: base medium: ")
    assert line.endswith("of 4 games ended with other scores)")
    arms = sorted(tmp_path.glob("*.jsonl"))
    assert len(arms) == 2
    assert sorted(tmp_path.glob("*.manifest.json")) == [arm.with_name(arm.stem + ".manifest.json") for arm in arms]
    for path in arms:
        games = _arm(tmp_path, path.name)
        assert sorted(games) == [1, 3, 5, 7]
        assert all(g["seats"] == [1, 0] for g in games.values())


@pytest.mark.parametrize(
    "seat, message",
    [
        ("2", "error: --seat must be from 0 to 1 in ma-easy-random, not 2"),
        ("-1", "error: --seat must be from 0 to 1 in ma-easy-random, not -1"),
    ],
)
def test_a_seat_outside_the_match_is_refused_and_nothing_is_played(tmp_path, capsys, seat, message):
    assert (
        paired.main(["--match", "ma-easy-random", "--set", "MA_PACE=2.5", "--seat", seat, "--dir", str(tmp_path)]) == 2
    )
    assert capsys.readouterr().err.strip() == message
    assert not list(tmp_path.iterdir())
