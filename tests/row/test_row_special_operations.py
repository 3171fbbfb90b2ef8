"""Rumor of War's special operations on the Air Display (issue #27 item 5): ROW-14.8 with ROW-10.4.3 / 10.4.4 and
ROW-14.1.5, decisions R-GAME-42 (the Air Display's SOW wings fly them) and R-GAME-43 (the Special Forces counters not
set up wait ready off the map)."""

from __future__ import annotations

import wargames
from wargames.core import Decision


def _drive(gen, answer):
    """Run a game procedure outside the engine, each Decision answered by ``answer``; returns (rulings, asked)."""
    rulings, asked = [], []
    try:
        item = next(gen)
        while True:
            if isinstance(item, Decision):
                asked.append(item)
                item = gen.send(answer(item))
            else:
                rulings.append(item)
                item = next(gen)
    except StopIteration:
        return rulings, asked


def _pick(kind, **match):
    """An answer: the first option of ``kind`` matching ``match`` where offered, else the last option."""

    def answer(d):
        return next(
            (o for o in d.options if o.kind == kind and all(o.get(k) == v for k, v in match.items())),
            None,
        ) or next((o for o in d.options if o.kind in ("sow_open", "no_sow_recon")), d.options[-1])

    return answer


def _tet():
    return wargames.load("row", "tet-offensive", seed=3)


def test_row_14_8_special_operations_are_playable_where_the_forces_include_them():
    """R-GAME-42 / R-GAME-43: Tet's air war has its SOW wing (the 14th; the 633rd was formed only in July 1968,
    R-WAR-37) and its Special Forces counters not set up are ready; Eastertide has neither (the US Special Forces left in 1971, the
    14th SOW in September 1971, R-WAR-37), so the step is not in play there."""
    g = _tet()
    assert g.sow_in_play() and len(g.sf_ready()) == 6 and "us_sf_kham_duc" not in g.sf_ready()
    rulings, asked = _drive(g.special_operations(), lambda d: d.options[-1])
    wings = [d.options[0]["wing"] for d in asked if d.kind == "special_operation"]
    assert wings == ["usaf_14sow"] and all(d.rule_id == "ROW-14.8" for d in asked)
    e = wargames.load("row", "eastertide", seed=3)
    assert not e.sow_in_play() and e.sf_ready() == []


def test_row_10_4_4_a_damaged_or_committed_sow_wing_does_not_fly():
    """R-GAME-42: a wing in the Damaged box, or committed to another mission box this season (10.4.4), is not
    offered a special operation; the ruling says which and why."""
    g = _tet()
    for box, why in (
        ("damaged", "14th Special Operations Wing (damaged)"),
        ("ground_support", "ground support"),
    ):
        g.airwar["aircraft"]["usaf_14sow"]["box"] = box
        rulings, asked = _drive(g.special_operations(), lambda d: d.options[-1])
        assert not [d for d in asked if d.kind == "special_operation"]
        note = next(r for r in rulings if r.title == "SOW wings not flying")
        assert why in note.explanation
    g.airwar["aircraft"]["usaf_14sow"]["box"] = "available"
    rulings, asked = _drive(g.special_operations(), lambda d: d.options[-1])
    assert [d.options[0]["wing"] for d in asked if d.kind == "special_operation"] == ["usaf_14sow"]


def test_row_14_8_a_disaster_sends_the_wing_to_the_damaged_box_with_its_pow_point():
    """R-GAME-42: a 10 on a raid into Laos damages the wing: it goes to the Air Display's Damaged box (out of every
    mission box) and, a US aircraft, adds its POW point (10.3, R-AIR-06); it then flies no more."""
    g = _tet()
    pow_before = g.vp["pow"]
    g.dice.force([10, 10])  # the raid's D10, then the Communist's accumulator roll if offered
    rulings, asked = _drive(
        g.fly_sow("usaf_14sow", 6), _pick("sow_mission", wing="usaf_14sow", mission="raid", country="LAO")
    )
    sow = next(r for r in rulings if r.title == "Special operation")
    assert sow.result["aircraft"] in ("damaged", "reduced_damaged")
    assert g.airwar["aircraft"]["usaf_14sow"]["box"] == "damaged"
    damaged = next(r for r in rulings if r.title == "Aircraft damaged")
    assert damaged.rule_id == "ROW-14.8" and g.vp["pow"] >= pow_before + 1
    g.pol["sow_done"] = []
    rulings, asked = _drive(g.fly_sow("usaf_14sow", 6), lambda d: d.options[0])
    assert not asked  # a damaged wing does not fly


def test_row_14_8_reconnaissance_is_offered_before_a_special_operation():
    """R-GAME-42 / 10.4.3: with an aircraft in the Reconnaissance box the Capitalist is asked whether it reconnoitres
    first; a success adds 1 to the mission roll (14.8); declining leaves the roll as it is."""
    g = _tet()
    g.airwar["aircraft"]["usaf_432trw"]["box"] = "recon"
    g.dice.force([1, 1, 4])  # recon 1 (success), stay on station 1, the raid's D10 4 (+1 = 5)
    rulings, asked = _drive(
        g.fly_sow("usaf_14sow", 6),
        lambda d: (
            _pick("sow_mission", mission="raid", country="LAO")(d)
            if d.kind == "special_operation"
            else _pick("sow_recon", aircraft="usaf_432trw")(d)
        ),
    )
    rec = next(d for d in asked if d.kind == "sow_recon")
    assert rec.rule_id == "ROW-10.4.3" and [o.kind for o in rec.options] == ["sow_recon", "no_sow_recon"]
    recon = next(r for r in rulings if r.title == "Reconnaissance")
    sow = next(r for r in rulings if r.title == "Special operation")
    assert recon.result["success"] and sow.inputs["recon"] and sow.result["roll"] == 5
    # declined: no reconnaissance, the roll unmodified
    g = _tet()
    g.airwar["aircraft"]["usaf_432trw"]["box"] = "recon"
    g.dice.force([4])
    rulings, asked = _drive(g.fly_sow("usaf_14sow", 6), _pick("sow_mission", mission="raid", country="LAO"))
    sow = next(r for r in rulings if r.title == "Special operation")
    assert any(d.kind == "sow_recon" for d in asked) and not sow.inputs["recon"] and sow.result["roll"] == 4


def test_row_14_8_the_bot_explains_its_reconnaissance_choice():
    from wargames.row.bots import RowBot

    g = _tet()
    g.airwar["aircraft"]["usaf_432trw"]["box"] = "recon"
    gen = g._sow_recon("usaf_14sow", None, "LAO")
    d = next(gen)
    bot = RowBot("Capitalist")
    a = bot.on_sow_recon(g, d)
    assert a.kind == "no_sow_recon" and "disaster" in bot.last_reason


def test_row_14_8_the_us_air_bot_keeps_sow_wings_available_while_special_forces_are_ready():
    """R-GAME-42 / 10.4.4: the built-in Capitalist commits a SOW wing to no mission box while a Special Forces
    battalion is ready (it flies a special operation instead), and commits it like any aircraft otherwise."""
    from wargames.core import Action
    from wargames.row.air_bot import _air_mission

    def commit(a, box="ground_support"):
        return Action.make("commit_aircraft", f"{a} to {box}", aircraft=a, box=box, restricted=False)

    done = Action.make("done_commit", "Commit no more aircraft")
    g = _tet()
    only_sow = Decision("Capitalist", "commit?", "ROW-10.2", [commit("usaf_14sow"), done], kind="air_mission")
    a, why = _air_mission(g, only_sow)
    assert a.kind == "done_commit" and "special operations" in why
    mixed = Decision(
        "Capitalist",
        "commit?",
        "ROW-10.2",
        [commit("usaf_14sow"), commit("usaf_355tfw"), done],
        kind="air_mission",
    )
    assert _air_mission(g, mixed)[0]["aircraft"] == "usaf_355tfw"
    for u in g.sf_ready():
        g.place(u, None, "replacements")
    assert (
        _air_mission(g, only_sow)[0]["aircraft"] == "usaf_14sow"
    )  # no Special Forces ready: it flies support
