"""Recompute FitL scenario facts from data/fitl and assert them (run by tests/test_fitl_data.py).

Victory markers per rules 1.9 / 7.2:
  US   = Total Support + US Troops and Bases in the Available box
  ARVN = Population of COIN-Controlled spaces + Patronage
  NVA  = Population of NVA-Controlled spaces + NVA Bases on the map
  VC   = Total Opposition + VC Bases on the map
Total Support = sum(2*Pop at Active Support + Pop at Passive Support) (1.6.2); Opposition likewise.
Control (1.7): COIN if US+ARVN pieces > NVA+VC pieces; NVA if NVA pieces > all others; else none.
"""

import csv
import sys
from collections import Counter
from pathlib import Path

import yaml

D = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[1] / "data" / "fitl")


def rows(name):
    with open(D / name, newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


KINDS = ("rules:", "external:", "reconstruction:", "decision:")
for f in sorted(D.glob("*.csv")):
    for i, r in enumerate(rows(f.name), start=2):
        assert r["source"].startswith(KINDS), (f.name, i)

spaces = {r["id"]: r for r in rows("spaces.csv")}
assert len(spaces) == 47
kinds = Counter(r["kind"] for r in spaces.values())
assert kinds == {"province": 22, "loc": 17, "city": 8}, kinds
POP = {k: int(r["population"] or 0) for k, r in spaces.items()}
assert sum(POP.values()) == 35
assert sum(int(r["econ"] or 0) for r in spaces.values()) == 15
for r in spaces.values():
    if r["kind"] == "city":
        assert int(r["population"]) in (1, 2, 6) and not r["terrain"] and not r["econ"]
    if r["kind"] == "province":
        assert int(r["population"]) in (0, 1, 2) and r["terrain"] in ("highland", "lowland", "jungle")
        if r["country"] != "SVN":
            assert POP[r["id"]] == 0
    if r["kind"] == "loc":
        assert int(r["econ"]) in (0, 1, 2) and r["terrain"] in ("highway", "mekong", "highway_mekong")
        assert not r["population"]
    assert r["country"] in ("SVN", "NVN", "LAO", "KHM")
cc = Counter(r["country"] for r in spaces.values())
assert cc == {"SVN": 40, "LAO": 2, "KHM": 4, "NVN": 1}, cc

adj = rows("adjacency.csv")
assert len(adj) == 143, len(adj)
E = set()
for r in adj:
    a, b = r["a"], r["b"]
    assert a in spaces and b in spaces and a != b and a < b
    assert frozenset((a, b)) not in E
    E.add(frozenset((a, b)))
nbr = {k: set() for k in spaces}
for e in E:
    a, b = tuple(e)
    nbr[a].add(b)
    nbr[b].add(a)
# connected
seen, todo = set(), ["saigon"]
while todo:
    x = todo.pop()
    if x in seen:
        continue
    seen.add(x)
    todo += list(nbr[x])
assert seen == set(spaces)
# rules text facts (digest 9.1)
assert {"quang_duc_long_khanh", "khanh_hoa", "binh_tuy_binh_thuan"} <= nbr["quang_duc_long_khanh"] | {
    "quang_duc_long_khanh"
}
assert "loc_cam_ranh_da_lat" in nbr["quang_duc_long_khanh"] and "loc_cam_ranh_da_lat" in nbr["cam_ranh"]
assert "kien_phong" in nbr["the_parrots_beak"]
assert nbr["loc_saigon_can_tho"] == {"kien_phong", "kien_hoa_vinh_binh", "can_tho", "saigon"}
assert {"saigon", "an_loc"} <= nbr["loc_saigon_an_loc_ban_me_thuot"]
assert {"hue", "da_nang"} <= nbr["loc_hue_da_nang"]
assert len(nbr["saigon"]) == 9 and len(nbr["pleiku_darlac"]) == 13 and len(nbr["sihanoukville"]) == 2
# towns: LoCs ending at the same town are adjacent; LoC-LoC adjacency only via towns
towns = rows("towns.csv")
via_town = set()
for t in towns:
    locs = t["locs"].split("|")
    for i, a in enumerate(locs):
        assert spaces[a]["kind"] == "loc"
        for b in locs[i + 1 :]:
            assert frozenset((a, b)) in E, (a, b)
            via_town.add(frozenset((a, b)))
loc_loc = {e for e in E if all(spaces[x]["kind"] == "loc" for x in e)}
assert loc_loc == via_town, loc_loc ^ via_town
# no North Vietnam - South LoC? (NV adjacent only to Central Laos, Quang Tri, Hue-Khe Sanh)
assert nbr["north_vietnam"] == {"central_laos", "quang_tri_thua_thien", "loc_hue_khe_sanh"}

pieces = {r["id"]: r for r in rows("pieces.csv")}
POOL = {k: int(r["count"]) for k, r in pieces.items() if r["type"] != "marker"}
assert sum(POOL.values()) == 229

cards = rows("cards.csv")
assert [int(c["number"]) for c in cards] == list(range(1, 131))
ck = Counter(c["kind"] for c in cards)
assert ck == {"event": 87, "capability": 19, "momentum": 14, "coup": 6, "pivotal": 4}, ck
pc = Counter(c["period"] for c in cards if int(c["number"]) <= 120)
assert pc == {"1964": 24, "1965": 48, "1968": 48}, pc
for c in cards:
    n = int(c["number"])
    fo = c["faction_order"].split()
    if n <= 124:
        assert sorted(fo) == ["ARVN", "NVA", "US", "VC"], c
    else:
        assert not fo and not c["period"] and c["kind"] == "coup"
period_of = {int(c["number"]): c["period"] for c in cards}


def control(p):
    coin = sum(v for k, v in p.items() if k.startswith(("us_", "arvn_")))
    nva = sum(v for k, v in p.items() if k.startswith("nva_"))
    vc = sum(v for k, v in p.items() if k.startswith("vc_"))
    if coin > nva + vc:
        return "coin"
    if nva > coin + vc:
        return "nva"
    return "none"


LEVEL = {
    "active_support": 2,
    "passive_support": 1,
    "neutral": 0,
    "passive_opposition": -1,
    "active_opposition": -2,
}
checks = {(r["scenario"], r["marker"]): int(r["printed"]) for r in rows("scenario_checks.csv")}
assert len(checks) == 12
tracks = {r["id"]: r for r in rows("tracks.csv")}
result = []
for sid in ("short", "medium", "full"):
    sc = yaml.safe_load((D / "scenarios" / f"{sid}.yaml").read_text())
    assert sc["id"] == sid
    onmap = Counter()
    support_total = opp_total = coin_pop = nva_pop = 0
    ids = [s["id"] for s in sc["spaces"]]
    assert len(ids) == len(set(ids))
    for s in sc["spaces"]:
        sp = spaces[s["id"]]
        p = s["pieces"]
        assert set(p) <= set(POOL), p
        onmap.update(p)
        lvl = LEVEL[s["support"]]
        if lvl:
            assert POP[s["id"]] >= 1 and sp["kind"] != "loc", s["id"]
        if lvl > 0:
            support_total += lvl * POP[s["id"]]
        else:
            opp_total += -lvl * POP[s["id"]]
        c = control(p)
        assert c == s["control"], (sid, s["id"], c, s["control"])
        if c == "coin":
            coin_pop += POP[s["id"]]
        if c == "nva":
            nva_pop += POP[s["id"]]
        bases = sum(v for k, v in p.items() if k.endswith("_bases"))
        assert bases <= 2 and (bases == 0 or sp["kind"] != "loc"), s["id"]
        if sp["country"] == "NVN":
            assert not any(k.startswith(("us_", "arvn_")) for k in p)
        for fac, n in (s.get("tunneled_bases") or {}).items():
            assert p.get(f"{fac.lower()}_bases", 0) >= n
    oop = Counter(sc["boxes"]["out_of_play"])
    cas = Counter(sc["boxes"]["casualties"])
    avail = {k: POOL[k] - onmap[k] - oop[k] - cas[k] for k in POOL}
    assert all(v >= 0 for v in avail.values()), avail
    assert avail == sc["boxes"]["available"], (sid, avail)
    assert all(k.startswith(("us_", "arvn_")) for k in oop)
    t = sc["tracks"]
    got = {
        "support_plus_available": support_total + avail["us_troops"] + avail["us_bases"],
        "coin_plus_patronage": coin_pop + t["patronage"],
        "nva_plus_bases": nva_pop + onmap["nva_bases"],
        "opposition_plus_bases": opp_total + onmap["vc_bases"],
    }
    for m, v in got.items():
        printed = checks[(sid, m)]
        result.append((sid, m, printed, v))
        assert v == printed, (sid, m, printed, v)
        assert int(tracks[m][sid]) == printed
    for k in ("aid", "patronage", "econ", "trail"):
        assert int(tracks[k][sid]) == t[k]
    for f in ("ARVN", "NVA", "VC"):
        assert int(tracks[f"{f.lower()}_resources"][sid]) == t["resources"][f]
    # deck
    dk = sc["deck"]
    assert dk["events"] == dk["piles"] * dk["events_per_pile"] and dk["cards"] == dk["events"] + dk["piles"]
    assert len(dk["coup_cards"]) == dk["piles"] * dk["coup_per_pile"]
    box = sc["rvn_leader"]["box"]
    allc = dk["coup_cards"] + box + dk.get("removed_coup_cards", [])
    assert sorted(allc) == [125, 126, 127, 128, 129, 130], allc
    assert (dk["pivotal"] == "removed") == (sid == "short")
    need = Counter()
    for grp in dk["period_events_option"]["piles"]:
        need[grp["period"]] += len(grp["piles"]) * dk["events_per_pile"]
    assert sum(need.values()) == dk["events"]
    for per, n in need.items():
        assert n <= pc[per], (sid, per, n)
    for cap in dk["period_events_option"]["capabilities"]:
        assert (
            cards[cap["card"] - 1]["kind"] == "capability" and cards[cap["card"] - 1]["title"] == cap["title"]
        )
        assert period_of[cap["card"]] in ("1964", "1965")
    assert sorted(sc["eligibility"]["eligible"]) == ["ARVN", "NVA", "US", "VC"]

print(f"{'scenario':8} {'marker':24} printed recomputed")
for sid, m, p, v in result:
    print(f"{sid:8} {m:24} {p:7} {v:10}")
print("all checks passed")
