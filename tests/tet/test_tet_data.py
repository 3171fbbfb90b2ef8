"""Tet data integrity: the counts the summary states (digest worked cases 39 and 40), set-up rules."""

from __future__ import annotations

import json
from collections import Counter

import pytest

import wargames
from wargames.tet.data import load_data


@pytest.fixture(scope="module")
def data():
    return load_data()


def test_tet_map_2_thirty_provinces(data):
    prov = [a for a in data.areas.values() if a.kind == "province"]
    assert Counter(a.country for a in prov) == {"SVN": 23, "LAO": 3, "KHM": 4}
    assert Counter(a.terrain for a in prov if a.country == "SVN")["marsh"] == 3


def test_tet_map_3_cities_airbases_and_pv(data):
    cities = [a for a in data.areas.values() if a.kind == "city"]
    assert len(cities) == 41 and sum(a.airbase for a in cities) == 10
    assert data.areas["saigon"].pv == 8 == max(a.pv for a in cities)
    assert min(a.pv for a in cities) >= 1


def test_tet_map_4_nine_sanctuaries_and_north_vietnam(data):
    sanct = [a for a in data.areas.values() if a.kind == "sanctuary"]
    assert len(sanct) == 10 and "NVN" in {a.id for a in sanct}


def test_tet_map_1_eighty_three_areas(data):
    """Decision A-05: 30 provinces + 41 cities + 9 sanctuaries + North Vietnam + 2 off-map air boxes = 83."""
    playable = [a for a in data.areas.values() if a.kind != "box" or a.id.startswith("offmap_box")]
    assert len(playable) == 83


def test_tet_map_5_province_number_gives_corps(data):
    roman = {"1": "I", "2": "II", "3": "III", "4": "IV"}
    for a in data.areas.values():
        if a.kind == "province" and a.country == "SVN":
            assert roman[a.id[0]] == a.corps


def test_tet_map_9_mekong_only_in_42_and_43(data):
    assert {a.id for a in data.areas.values() if a.mekong} == {"42", "43"}


def test_tet_map_6_trail_links_most_sanctuaries(data):
    trail = {x for a, b, k in data.map.edges if k == "trail" for x in (a, b)}
    assert len(trail) >= 6 and trail <= {a.id for a in data.areas.values() if a.kind == "sanctuary"}


def test_tet_p4_4_three_coastal_i_corps_provinces(data):
    coastal = {a.id for a in data.areas.values() if a.kind == "province" and a.corps == "I" and a.coastal}
    assert coastal == {"11", "12", "13"}


def test_tet_unit_1_counts(data):
    """Digest case 39."""
    u = list(data.units.values())
    by = Counter(x.faction for x in u)
    assert by["NVA"] == 22 and by["VC"] == 56
    nva = Counter(x.type for x in u if x.faction == "NVA")
    assert nva == {"regiment": 14, "division": 8}
    us = [x for x in u if x.faction == "USA" and x.nation == "US"]
    assert Counter(x.size for x in us) == {"large": 18, "small": 36}
    assert sum(x.nation == "AUS" for x in u) == 1 and sum(x.nation == "ROK" for x in u) == 7
    svn = [x for x in u if x.faction == "SVN" and x.type != "ruff_puff"]
    assert len(svn) == 47 and sum(x.white_letters for x in svn) == 10
    assert sum(x.type == "ruff_puff" for x in u) == 40
    assert sum(x.sector == "T" for x in u if x.faction in ("USA", "SVN")) == 19
    kinds = Counter(x.type for x in u)
    assert kinds["recce"] == 4 and kinds["mech_cav"] == 4 and kinds["heli"] == 6
    assert kinds["tac_air"] + kinds["arc_light"] == 6 and kinds["riverine"] == 1 and kinds["battleship"] == 1


def test_tet_unit_2_sappers_have_a_defense_factor(data):
    sappers = [x for x in data.units.values() if x.type == "sapper"]
    assert sappers and all(x.defense is not None and x.defense < x.cf for x in sappers)


def test_tet_comp_2_demoralization_levels(data):
    assert {f: r.demoralization_level for f, r in data.factions.items()} == {
        "USA": 160,
        "NVA": 130,
        "VC": 130,
        "SVN": 100,
    }


def test_tet_comp_4_one_crt_reconstructed(data):
    assert len(data.crt) == 6 and all(r.source.startswith("reconstruction:") for r in data.crt)


def test_tet_setup_1_allied_face_up_at_start():
    g = wargames.load("tet", seed=3)
    for u in g.data.units.values():
        if u.faction in ("USA", "SVN") and u.type != "ruff_puff":
            assert g.face_up[u.id] and g.loc[u.id] == u.start


def test_tet_setup_6_theater_air_starts_off_map():
    g = wargames.load("tet", seed=3)
    assert {g.loc["us_tac_t"], g.loc["us_arclight"]} == {"offmap_box_1", "offmap_box_2"}


def test_tet_setup_2_ruff_puffs_one_per_city_except_saigon():
    g = wargames.load("tet", seed=3)
    rp_city = Counter(g.loc[u.id] for u in g.data.units.values() if u.type == "ruff_puff")
    cities = {a.id for a in g.data.areas.values() if a.kind == "city"}
    assert set(rp_city) == cities - {"saigon"} and set(rp_city.values()) == {1}
    assert not any(g.face_up[u.id] for u in g.data.units.values() if u.type == "ruff_puff")
    other = wargames.load("tet", seed=4)
    assert any(g.loc[u] != other.loc[u] for u in g.loc if u.startswith("rp_"))


def test_tet_setup_2_exempt_city_is_an_option():
    g = wargames.load("tet", seed=3, ruff_puff_exempt_city="khe_sanh")
    assert not any(g.loc[u.id] == "khe_sanh" for u in g.data.units.values() if u.type == "ruff_puff")


def test_tet_setup_3_vc_start_in_own_corps_face_down(data):
    g = wargames.load("tet", seed=3)
    for u in data.units.values():
        if u.faction == "VC":
            assert g.vc_may_enter(u.id, u.start) and data.areas[u.start].kind != "city"


def test_tet_setup_4_nva_divisions_in_sanctuaries_or_laos_cambodia(data):
    for u in data.units.values():
        if u.faction == "NVA" and u.type == "division":
            a = data.areas[u.start]
            assert a.kind == "sanctuary" or a.country in ("LAO", "KHM")


def test_tet_setup_5_only_nva_regiments_may_start_in_i_corps(data):
    for u in data.units.values():
        if (
            u.faction == "NVA"
            and data.areas[u.start].country == "SVN"
            and data.areas[u.start].kind == "province"
        ):
            assert u.type == "regiment" and data.areas[u.start].corps == "I"


def test_tet_seq_1_five_turns_of_eight_phases():
    g = wargames.load("tet", seed=1)
    assert g.sequence.turns == 5 and [p.number for p in g.sequence.phases] == list(range(1, 9))
    g.play()
    starts = [(r.turn, r.result["phase"]) for r in g.log if r.step == "phase" and r.turn > 0]
    assert len(starts) == 40


def test_tet_aim_3_most_demoralized_factions_wins_at_the_end():
    g = wargames.load("tet", seed=1)
    g.play()
    dem = g.demoralized()
    red, blue = dem["NVA"] + dem["VC"], dem["USA"] + dem["SVN"]
    expected = "Allied" if red > blue else "Communist" if blue > red else None
    assert g.result.rule_id == "TET-AIM-3" and g.result.result["winner"] == expected
    g2 = wargames.load("tet", seed=1)
    g2.score["SVN"] = 500  # a what-if: South Vietnam broke early
    g2.play()
    assert g2.result.result["communist_demoralized"] >= 1


def test_tet_comp_3_game_ends_after_turn_five():
    g = wargames.load("tet", seed=2)
    g.play()
    assert g.is_over and g.turn == 5


def _inside(x: float, y: float, ring: list) -> bool:
    """Even-odd ray casting: is (x, y) inside the polygon ring?"""
    inside = False
    for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            inside = not inside
    return inside


def test_tet_map_8_the_border_separates_vietnam_from_laos_and_cambodia():
    """The red border line is the real one (data/geo), and every area sits on its own side of it."""
    from wargames.core.data import data_root

    pytest.importorskip("bokeh")
    from wargames.notebook.tetmap import static_layers
    from wargames.testing import unstarted

    layers = static_layers(unstarted("tet"))
    assert {
        "Laos / South Vietnam (Republic of Vietnam)",
        "Cambodia / South Vietnam (Republic of Vietnam)",
    } <= set(layers["borders"]["name"])
    countries = json.loads((data_root() / "geo" / "countries.geojson").read_text(encoding="utf-8"))
    polygons = {}
    for feat in countries["features"]:
        geom = feat["geometry"]
        polys = [geom["coordinates"]] if geom["type"] == "Polygon" else geom["coordinates"]
        polygons[feat["properties"]["id"]] = [p[0] for p in polys]
    data = load_data()
    wrong = []
    for a in data.areas.values():
        if a.kind in ("province", "city") and a.lat is not None:
            home = [c for c, rings in polygons.items() if any(_inside(a.lon, a.lat, r) for r in rings)]
            if home != [a.country]:
                wrong.append((a.id, a.country, home))
    assert not wrong, wrong


def _standard(seed=5):
    """The standard game (decision D-23): the Communist player sets up the NVA and VC."""
    return wargames.load("tet", seed=seed, communist_setup="player")


def _setup_to(g, pred):
    from wargames.core import Action

    while not pred(g.unit(g.decision.context["unit"])):
        uid = g.decision.context["unit"]
        g.apply(Action.make("setup", unit=uid, to=g.unit(uid).start))
    return g.decision.context["unit"]


def test_tet_setup_3_standard_game_vc_set_up_in_own_corps_provinces_or_bordering_sanctuaries(data):
    g = _standard()
    uid = g.decision.context["unit"]
    u = data.units[uid]
    assert u.faction == "VC" and g.decision.rule_id == "TET-SETUP-3" and g.decision.side == "Communist"
    where = {a["to"] for a in g.legal_actions() if a.kind == "setup"}
    provinces = {a.id for a in data.areas.values() if a.kind == "province" and a.corps == u.sector}
    assert provinces <= where and not any(data.areas[a].kind == "city" for a in where)
    assert all(data.areas[a].kind == "sanctuary" for a in where - provinces)
    assert "S2" in where and "S4" not in where  # I Corps VC: A Shau, not the Cambodian Plei Trap


def test_tet_setup_4_standard_game_nva_division_any_sanctuary_or_laos_cambodia_province(data):
    g = _standard()
    uid = _setup_to(g, lambda u: u.faction == "NVA" and u.type == "division")
    where = {a["to"] for a in g.legal_actions() if a.kind == "setup"}
    assert where == {
        a.id
        for a in data.areas.values()
        if a.kind == "sanctuary" or a.kind == "province" and a.country in ("LAO", "KHM")
    }
    assert "NVN" in where and g.decision.rule_id == "TET-SETUP-4" and uid in g.loc


def test_tet_setup_5_standard_game_nva_regiments_may_also_set_up_in_i_corps(data):
    g = _standard()
    _setup_to(g, lambda u: u.faction == "NVA" and u.type == "regiment")
    where = {a["to"] for a in g.legal_actions() if a.kind == "setup"}
    assert (
        {"11", "12", "13", "14", "15"} <= where and "22" not in where and g.decision.rule_id == "TET-SETUP-5"
    )


def test_tet_setup_3_a_placement_the_rules_do_not_allow_is_refused():
    from wargames.core import Action, IllegalAction

    g = _standard()
    uid = g.decision.context["unit"]
    before = g.state_dict()
    with pytest.raises(IllegalAction) as err:
        g.apply(Action.make("setup", unit=uid, to="hue"))  # a city
    assert err.value.rule_id == "TET-SETUP-3" and g.state_dict() == before


def test_tet_setup_3_bot_sets_up_historically_and_says_why_hidden_from_the_allies(data):
    from wargames.tet.bots import CommunistBot

    g = _standard()
    bot = CommunistBot(0)
    act = bot.choose(g, g.decision)
    assert act["to"] == data.units[act["unit"]].start and "1968 deployment" in bot.last_reason
    g.apply(act)
    placed = g.log[-1]
    assert (
        "Allied" in placed.hidden_from and "face-down" in placed.public and act["unit"] not in placed.public
    )


def test_tet_setup_3_historical_scenario_keeps_the_1968_placement(data):
    g = wargames.load("tet", seed=5)
    assert g.rules_opts.communist_setup == "historical" and g.turn == 1
    assert all(g.loc[u.id] == u.start for u in data.units.values() if u.faction in ("NVA", "VC"))
    s = _standard(5)
    s.play()
    h = wargames.load("tet", seed=5)
    h.play()
    assert s.scores() == h.scores()  # the bot sets up as history did: the same game follows
