"""Ground combat (YOTR-CBT), the CRT (YOTR-CBT-CRT), towns and militia (YOTR-TWN), battlegroups (YOTR-CBT-Q).

* YOTR-SOP-A3a / YOTR-SOP-B4a / YOTR-CBT-P: every attack of the phase is declared first (target hex, then its
  attackers); Communist attackers are turned face up when declared.  YOTR-CBT-K: the attacker then picks which
  declared attack to resolve next, again after each battle, once its dummies are revealed and its retreats and
  advances made (D-56; with one attack left it is resolved at once); supply is judged at each battle (YOTR-SUP-F).
  A unit with no attack strength when attacks are declared (an Unsupplied ARVN unit) cannot be declared, and an
  attack whose attackers have all lost their strength by the battle is not made and reveals nothing (D-54).
* YOTR-CBT-A / YOTR-CBT-B / YOTR-CBT-C / YOTR-CBT-E / YOTR-CBT-H / YOTR-CBT-J: adjacent units only, attacking is
  voluntary, each unit attacks once and each enemy unit is attacked once (one retreating into another
  declared target neither defends nor suffers there again, D-66), up to six stacks, stacks need not attack
  together, strength is never split.  YOTR-CBT-F: a hex defends as one.  YOTR-CBT-N: attacks cross any border.
  YOTR-CBT-D: further hexes next to every attacker may join one attack, defences added (D-35, D-60).
* YOTR-CBT-PROC / YOTR-CBT-G / YOTR-CBT-M: attack and defence totals with terrain and supply (exact fractions,
  D-15), odds rounded down in the defender's favour, clamped to 1-4 .. 10-1 (YOTR-CBT-CRT); defence 0 is 10-1
  (D-40).  YOTR-TEC-1: river doubling only if every attacker is across an unbridged river (D-02);
  YOTR-TWN-F: units in a base double; YOTR-TEC-4: never more than x2; militia added undoubled (D-03).
* YOTR-TWN-E / YOTR-TWN-D: militia adds to the defence only.  YOTR-TWN-PROC: any result against the defender
  eliminates the militia and the hex changes hands once no defending unit is left (D-55): an NLF militia is
  gone even when a Battlegroup keeps the town, which then defends without it and is retaken by the first
  Allied unit to enter it empty; an Allied militia left to defend alone by units that already defended this
  phase is eliminated likewise while those units keep the town (D-71).  YOTR-TWN-M restores the new owner's
  militia.  YOTR-SUP-D: a Supply Center defends with 2, is destroyed on De (and its supply
  units with it), and ignores retreats unless surrounded (D-27).
* YOTR-CBT-P / YOTR-DUM-C: Allied attacks reveal the defenders one attack at a time; dummies are removed; an
  attack that finds only dummies is spent with no result (D-34).  Dummies never attack (D-33).
* YOTR-CBT-Q: a full-strength NVA unit eliminated by ground combat (also on Ae, D-32, or a failed retreat) becomes
  a 1-6 Battlegroup (2-1-6 under YOTR-SR-H) in place, which does not retreat; a Battlegroup is never replaced again.
* YOTR-ZOC-D / YOTR-ZOC-H / D-05: retreats go exactly N hexes, each step farther away, never into enemy units,
  enemy militia, prohibited terrain or enemy zones without a friendly unit; the owner picks the end hex (D-57); a unit
  that cannot retreat is eliminated.  YOTR-MOV-S: USA units retreating from a base go to another friendly base
  or leave the game; D-06: airmobile ARVN in a town may retreat by air to a friendly town.
* YOTR-CBT-L / D-43: if every defender is gone the attackers may advance into the hex, obeying movement limits
  (USA never, D-20).  YOTR-MOV-K: retreats and advances cost no movement points.
* YOTR-ZOC-F2 / D-50: a Communist attack on a hex holding a USA unit switches on every USA zone.
* YOTR-TWN-L: militia is never affected by supply (it is added as printed) nor bombarded.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..core import Action, IllegalAction
from ..core.rulings import Lookup
from .data import CRT_COLUMNS


def odds_column(attack: Fraction, defense: Fraction) -> str | None:
    """YOTR-CBT-G / YOTR-CBT-CRT: odds rounded in the defender's favour, clamped to 1-4 .. 10-1."""
    if attack <= 0:
        return None
    if defense <= 0:
        return "10-1"  # D-40
    if attack >= defense:
        return f"{min(math.floor(attack / defense), 10)}-1"
    return f"1-{min(math.ceil(defense / attack), 4)}"


def column_index(col: str) -> int:
    return CRT_COLUMNS.index(col)


class CombatRules:
    # ------------------------------------------------------------------ who may attack what
    def enemy_of(self, side: str) -> str:
        return "Allied" if side == "Communist" else "Communist"

    def may_attack(self, uid: str) -> bool:
        """YOTR-CBT: real combat units not Disrupted (D-08), not dummies (D-33), with a printed attack strength.
        Supply is asked separately, by ``may_declare`` (D-54)."""
        u = self.counters[uid]
        if not u.is_combat or uid in self.disrupted:
            return False
        if u.nationality == "USA" and not (self.opts.usa_may_attack or self.opts.special_rule_f):
            return False
        return self.attack_value(uid) > 0

    def may_declare(self, uid: str) -> bool:
        """YOTR-CBT-A with YOTR-SUP-CHART (decision D-54 as revised by issue 28): a unit is declared as an
        attacker only if it has an attack strength now; a unit whose supply makes it zero (an Unsupplied ARVN
        unit) cannot be declared against a hex, so an attack that could not be made never reveals the hex."""
        return self.may_attack(uid) and self.attack_strength(uid) > 0

    def attack_strength(self, uid: str) -> Fraction:
        state = self.supply_state(uid, combat=True)
        return self.attack_value(uid) * self.supply_factor(uid, state, "attack")

    def is_target(self, h: str, side: str) -> bool:
        """A hex ``side`` may attack: enemy units (dummies too) or enemy militia or an intact Supply Center."""
        if side == "Communist":
            return bool(self.counters_at(h, "Allied")) or self.allied_militia(h) > 0
        return bool(self.counters_at(h, "Communist")) or bool(self.communist_militia(h)) or self.sc_intact(h)

    def _why_not_target(self, act: Action, side: str, targeted: set[str]) -> IllegalAction | None:
        """Why a hex may not be attacked now (issue #30 item 13: an empty hex is refused as empty, not as "not one of
        the legal choices"); None leaves the generic refusal."""
        if act.kind != "target":
            return None
        h = act.get("hex")
        if h is None:
            return IllegalAction("YOTR-CBT-A", "an attack names the hex it attacks; this one names none")
        if h not in self.data.hexes:
            return IllegalAction("YOTR-CBT-A", f"{h} is not a hex of the map")
        if h in targeted:
            return IllegalAction("YOTR-CBT-C", f"{self.hex_name(h)} is already attacked this phase")
        if not self.is_target(h, side):
            return IllegalAction(
                "YOTR-CBT-A",
                f"{self.hex_name(h)} holds no enemy unit, militia or Supply Center of the {self.enemy_of(side)} "
                "side: there is nothing there to attack",
            )
        return IllegalAction(
            "YOTR-CBT-A", f"no {side} unit able to attack is next to {self.hex_name(h)} (Combat case A)"
        )

    def attack_targets(self, side: str, used: set[str], targeted: set[str]) -> list[str]:
        out = set()
        for uid in self.on_map(side):
            if uid in used or not self.may_declare(uid):
                continue
            for n in self.data.adj[self.loc[uid]]:
                if n not in targeted and self.is_target(n, side):
                    out.add(n)
        return sorted(out)

    def eligible_attackers(self, side: str, target: str, used: set[str]) -> list[str]:
        return [
            u
            for n in self.data.adj[target]
            for u in self.combat_units_at(n, side)
            if u not in used and self.may_declare(u)
        ]

    def defenders_at(self, h: str, side: str) -> list[str]:
        """YOTR-CBT-C: the combat units of ``side`` in ``h`` that may still be attacked this Combat Phase (a unit
        that already defended and retreated here is left out, D-66)."""
        return [u for u in self.combat_units_at(h, side) if u not in self.defended]

    # ------------------------------------------------------------------ strengths
    def defense_strength(self, h: str, attackers: list[str]) -> tuple[Fraction, dict]:
        """YOTR-CBT-PROC: the combined defence of hex ``h`` against ``attackers``, with its parts."""
        d = self.data
        side = self.enemy_of(self.side_of(attackers[0])) if attackers else "Allied"
        units = self.defenders_at(h, side)
        total_units = Fraction(0)
        for u in units:
            state = self.supply_state(u, combat=True)
            total_units += self.defense_value(u) * self.supply_factor(u, state, "defense")
        doubled = []
        if h in d.towns and d.towns[h].kind == "base":
            doubled.append("base (Towns case F)")
        if attackers and all(
            d.side_has(self.loc[a], h, "river")
            and not (d.side_has(self.loc[a], h, "bridge") and self.opts.bridge_cancels_river_doubling)
            for a in attackers
        ):
            doubled.append("every attacker across a river (Terrain Note 1)")
        if self.opts.rough_swamp_defence == 2 and d.terrain(h) in ("rough", "swamp"):
            doubled.append("rough or swamp (decision D-01 alternative)")
        factor = 2 if doubled else 1  # YOTR-TEC-4: never more than x2
        militia = (
            self.allied_militia(h)
            if side == "Allied"
            else (self.communist_militia(h) + (2 if self.sc_intact(h) else 0))
        )
        total = total_units * factor + militia
        return total, {
            "units": float(total_units),
            "doubled_by": doubled,
            "militia": militia,
            "total": float(total),
        }

    # ------------------------------------------------------------------ the phases
    def communist_combat(self):
        """YOTR-SOP-A3a / YOTR-SOP-A3b: the Communist Combat Phase."""
        yield from self._combat("Communist")

    def allied_combat(self):
        """YOTR-SOP-B4a / YOTR-SOP-B4b: the Allied Combat Phase."""
        yield from self._combat("Allied")

    def _combat(self, side: str):
        self.defended = set()  # YOTR-CBT-C: enemy units attacked so far this Combat Phase
        attacks: list[tuple[str, list[str], list[str]]] = []
        used: set[str] = set()
        targeted: set[str] = set()
        while True:
            targets = self.attack_targets(side, used, targeted)
            if not targets:
                break
            opts = [Action.make("target", f"Attack {self.hex_name(h)}", [h], hex=h) for h in targets]
            opts.append(Action.make("done", "Resolve the declared attacks" if attacks else "Make no attack"))
            act = yield self.decide(
                side,
                "Declare an attack on a hex (or finish declaring)",
                "YOTR-CBT-A",
                opts,
                kind="target",
                check=lambda a, side=side, targeted=set(targeted): self._why_not_target(a, side, targeted),
            )
            if act.kind == "done":
                break
            target = act["hex"]
            group: list[str] = []
            while True:
                cand = [u for u in self.eligible_attackers(side, target, used) if u not in group]
                if not cand:
                    break
                opts = []
                if not group and len(cand) > 1:
                    opts.append(
                        Action.make(
                            "all_attack",
                            f"Attack {target} with all {len(cand)} adjacent units",
                            [target],
                            hex=target,
                        )
                    )
                opts += [
                    Action.make("attacker", f"Add {self.describe(u)} at {self.loc[u]}", [self.loc[u]], unit=u)
                    for u in cand
                ]
                if group:
                    opts.append(
                        Action.make("commit", f"Attack {target} with these {len(group)} unit(s)", [target])
                    )
                a = yield self.decide(
                    side, f"Choose the units attacking {target}", "YOTR-CBT-H", opts, kind="attackers"
                )
                if a.kind == "commit":
                    break
                if a.kind == "all_attack":
                    group += cand
                    break
                group.append(a["unit"])
            extra: list[str] = []
            while True:  # YOTR-CBT-D / D-60: more hexes next to every attacker may join the same attack
                more = [
                    h
                    for h in targets
                    if h != target
                    and h not in extra
                    and h not in targeted
                    and all(h in self.data.adj[self.loc[u]] for u in group)
                ]
                if not more:
                    break
                opts = [Action.make("add_hex", f"Attack {h} in the same attack", [h], hex=h) for h in more]
                opts.append(Action.make("no_more", "No more hexes in this attack"))
                a = yield self.decide(
                    side, f"Add another hex to the attack on {target}?", "YOTR-CBT-D", opts, kind="add_hex"
                )
                if a.kind == "no_more":
                    break
                extra.append(a["hex"])
            used.update(group)
            targeted.add(target)
            targeted.update(extra)
            attacks.append((target, group, extra))
            if side == "Communist":
                self.face_up.update(group)
            yield self.ruling(
                "YOTR-SOP-A3a" if side == "Communist" else "YOTR-SOP-B4a",
                f"Attack on {target} declared",
                f"{side} declares an attack on {self.hex_name(target)} by "
                f"{', '.join(self.describe(u) for u in group)}"
                + (f" (together with {', '.join(extra)}, Combat case D)" if extra else "")
                + (", turned face up (Combat case P)." if side == "Communist" else "."),
                result={"target": target, "attackers": group, "extra": extra},
                places=[target, *extra],
            )
        self.pending_attacks = attacks
        while attacks:  # YOTR-CBT-K / YOTR-CBT-P: the attacker picks the next battle after each one (D-56)
            if len(attacks) == 1:
                nxt = attacks[0]
            else:
                opts = [
                    Action.make(
                        "resolve",
                        f"Resolve the attack on {self.hex_name(t)} ({len(g)} unit(s)"
                        + (f", with {', '.join(x)}" if x else "")
                        + ")",
                        [t, *x],
                        hex=t,
                    )
                    for t, g, x in attacks
                ]
                act = yield self.decide(
                    side, "Which declared attack is resolved next?", "YOTR-CBT-K", opts, kind="resolve"
                )
                nxt = next(a for a in attacks if a[0] == act["hex"])
            attacks.remove(nxt)
            yield from self.resolve_attack(side, *nxt)
            if self._over:
                return
        self.pending_attacks = []
        self.defended = set()
        self.face_up = {u for u in self.face_up if self.is_supply_unit(u)}

    # ------------------------------------------------------------------ one battle
    def resolve_attack(self, side: str, target: str, attackers: list[str], extra: list[str] | tuple = ()):
        """One attack: on ``target`` and, under Combat case D, the ``extra`` hexes with it (D-35, D-60)."""
        d = self.data
        hexes = [target, *extra]
        attackers = [
            u
            for u in attackers
            if self.side_of(u) == side and all(self.loc[u] in d.adj.get(h, ()) for h in hexes)
        ]
        if not attackers:
            yield self.ruling(
                "YOTR-CBT-A",
                f"Attack on {target} lapses",
                "No declared attacker is still next to the hex, so the attack is not made.",
                places=hexes,
            )
            return
        if all(self.attack_strength(u) == 0 for u in attackers):  # YOTR-SUP-F: supply judged now (D-54)
            yield self.ruling(
                "YOTR-CBT-PROC",
                f"No attack on {target}",
                "Every declared attacker has lost its attack strength since the declaration (its supply line "
                "was cut by an earlier battle), so the attack is not made and the defenders stay hidden "
                "(Supply case F, decision D-54).",
                result={"target": target, "spent": attackers},
                places=hexes,
            )
            return
        if side == "Allied":
            live = []
            for h in hexes:
                found = yield from self._reveal(h, attackers)
                if found:
                    live.append(h)
            if not live:
                yield self.ruling(
                    "YOTR-CBT-P",
                    f"Attack on {target} spent",
                    "The hex held only dummies: the "
                    "attacking units are spent for this phase and there is no combat result "
                    "(decision D-34).",
                    result={"target": target, "spent": attackers},
                    places=hexes,
                )
                yield from self.check_victory()
                return
            hexes = live
        enemy = self.enemy_of(side)
        fresh = [
            h
            for h in hexes
            if self.defenders_at(h, enemy)
            or (
                self.allied_militia(h)
                if enemy == "Allied"
                else self.communist_militia(h) or self.sc_intact(h)
            )
        ]
        if not fresh:
            yield self.ruling(
                "YOTR-CBT-C",
                f"Attack on {target} not made",
                "Every unit now in the hex has already "
                "been attacked this Combat Phase (it retreated there) and no militia or Supply "
                "Center defends it, so no unit may be attacked here again: the declared attackers "
                "are spent and there is no combat result (decision D-66).",
                result={"target": target, "spent": attackers},
                places=hexes,
            )
            return
        yield from self._battle(side, fresh, attackers)

    def _reveal(self, target: str, attackers: list[str]):
        """YOTR-CBT-P / YOTR-DUM-C: the defenders of one hex turn face up; dummies go.  True if anything real
        (units, militia, a Supply Center) is left to fight."""
        here = self.counters_at(target, "Communist")
        self.face_up.update(here)
        dummies = [u for u in here if self.is_dummy(u)]
        for u in dummies:
            self.place(u, "removed")
            self.pinned.discard(u)
            self.disrupted.discard(u)
            yield self.ruling(
                "YOTR-DUM-C",
                f"Dummy exposed at {target}",
                f"The counter {u} at {target} is a "
                "dummy, exposed by a ground attack: it is removed for good (Dummy case C).",
                changes=[{"unit": u, "from": target, "to": "removed"}],
                places=[target],
            )
        return bool(
            self.combat_units_at(target, "Communist")
            or self.communist_militia(target)
            or self.sc_intact(target)
        )

    def _usa_zoc_switch(self, side: str, hexes: list[str]):
        """Decision D-50 (YOTR-ZOC-F2): the first Communist attack on a USA unit gives every USA unit a full zone
        of control from then on."""
        if (
            side == "Communist"
            and any(self.counters[u].nationality == "USA" for h in hexes for u in self.units_at(h))
            and not self.usa_zoc
        ):
            self.usa_zoc = True
            self.touch()
            yield self.ruling(
                "YOTR-ZOC-F2",
                "USA zones of control switched on",
                "A USA unit has been attacked: "
                "from now on every USA unit has a full zone of control (decision D-50).",
                result={"usa_zoc": True},
                places=[hexes[0]],
            )

    def _combined_defence(self, hexes: list[str], attackers: list[str]) -> tuple[Fraction, dict]:
        """YOTR-CBT-D: the defence of every attacked hex as one total, with its parts (units, what doubled them,
        militia)."""
        dfn, parts = self.defense_strength(hexes[0], attackers)
        for h in hexes[1:]:
            more, p2 = self.defense_strength(h, attackers)
            dfn += more
            parts = {
                "units": parts["units"] + p2["units"],
                "doubled_by": parts["doubled_by"] + p2["doubled_by"],
                "militia": parts["militia"] + p2["militia"],
                "total": float(dfn),
            }
        return dfn, parts

    def _battle(self, side: str, hexes: list[str], attackers: list[str]):
        """YOTR-CBT-PROC: totals, odds, die, result, applied to every defending hex."""
        d = self.data
        target = hexes[0]
        yield from self._usa_zoc_switch(side, hexes)
        strengths = {u: self.attack_strength(u) for u in attackers}  # YOTR-SUP-F: supply judged now
        atk = sum(strengths.values(), Fraction(0))
        idle = [u for u, v in strengths.items() if v == 0]
        dfn, parts = self._combined_defence(hexes, attackers)
        defenders = {h: self.defenders_at(h, self.enemy_of(side)) for h in hexes}
        col = odds_column(atk, dfn)
        if col is None:
            yield self.ruling(
                "YOTR-CBT-PROC",
                f"No attack on {target}",
                "The attackers have no attack strength "
                "left at the moment of combat (supply), so no attack is made.",
                places=[target],
            )
            return
        roll = self.dice.roll(6, "combat")
        die = roll.value
        result = d.crt[(die, col)]
        yield self.ruling(
            "YOTR-CBT-CRT",
            f"Battle for {', '.join(hexes)}: {result}",
            f"{float(atk):g} attack against {float(dfn):g} defence"
            + (
                f" (units {parts['units']:g}"
                + (f", doubled for {' and '.join(parts['doubled_by'])}" if parts["doubled_by"] else "")
                + f", militia {parts['militia']})"
            )
            + f" is {col} after rounding in the defender's favour; the die shows {die}: {result}."
            + (
                f" ({', '.join(idle)} add(s) nothing: attack strength zero, Unsupplied at this instant of "
                "combat, Supply case F, decision D-54.)"
                if idle
                else ""
            ),
            result={"target": target, "hexes": list(hexes), "odds": col, "die": die, "crt": result},
            inputs={"attack": float(atk), "defense": float(dfn), **parts, "attackers": list(attackers)},
            dice=[roll],
            lookup=Lookup("CRT", str(die), col, result),
            places=list(hexes),
            side=side,
        )
        for units in defenders.values():  # YOTR-CBT-C: attacked once, never again this phase
            self.defended.update(units)
        if result in ("Ae", "Ar1", "Ar2"):
            for u in list(attackers):
                if result == "Ae":
                    yield from self.eliminate(u, "the attackers are eliminated (Ae)")
                else:
                    yield from self.retreat(u, int(result[-1]))
        elif result in ("De", "Dr1", "Dr2"):
            for h in hexes:
                yield from self.defender_loses(
                    side, h, result, attackers, advance=False, defenders=defenders[h]
                )
            enemy = self.enemy_of(side)
            if all(not self.combat_units_at(h, enemy) and not self.is_target(h, side) for h in hexes):
                yield from self.advance_after_combat(side, target, attackers)  # D-35: into one hex
        if side == "Communist":
            self.face_up -= set(attackers)
        self.face_up = {u for u in self.face_up if self.is_supply_unit(u)}
        yield from self.check_victory()

    def defender_loses(
        self,
        side: str,
        target: str,
        result: str,
        attackers: list[str],
        advance: bool = True,
        defenders: list[str] | None = None,
    ):
        """Apply a result against the defender of ``target`` to the units that defended it (YOTR-CBT-C: a unit
        attacked earlier this phase that retreated into the hex is left alone, D-66)."""
        enemy = self.enemy_of(side)
        if defenders is None:
            defenders = self.defenders_at(target, enemy)
        for u in [u for u in defenders if self.loc[u] == target]:
            if result == "De":
                yield from self.eliminate(u, "the defenders are eliminated (De)")
            else:
                yield from self.retreat(u, int(result[-1]))
        if enemy == "Communist" and self.sc_intact(target):
            if result == "De" or self.sc_surrounded(target):
                yield from self.destroy_sc(target, result)
            else:
                yield self.ruling(
                    "YOTR-SUP-D",
                    f"Supply Center {target} holds",
                    f"A Supply Center ignores {result} "
                    "unless every hex around it is held or controlled by Allied units (decision D-27).",
                    places=[target],
                )
        if enemy == "Communist" and self.communist_militia(target) and self.combat_units_at(target, enemy):
            self.militia_gone.add(target)
            self.touch()
            yield self.ruling(
                "YOTR-TWN-PROC",
                f"NLF militia of {self.hex_name(target)} eliminated",
                f"The result against the defender eliminates the NLF militia of "
                f"{self.hex_name(target)}, but the Battlegroup left in place (Combat case Q) still holds "
                "the town for the Communist: it stays Communist-held, without militia strength, until "
                "no Communist unit is left there (decision D-55).",
                result={"town": target, "militia": 0},
                places=[target],
            )
        if enemy == "Allied" and self.allied_militia(target) and self.combat_units_at(target, enemy):
            self.militia_gone.add(target)  # D-55 / D-71: the militia is lost, the town stays with its holder
            self.touch()
            yield self.ruling(
                "YOTR-TWN-PROC",
                f"Militia of {self.hex_name(target)} eliminated",
                f"The result against the defender eliminates the militia of {self.hex_name(target)}. "
                f"{', '.join(self.describe(u) for u in self.combat_units_at(target, enemy))}, already attacked "
                "this phase elsewhere and retreated here, takes no part in this battle (decision D-66) but "
                "still holds the town for the Allies: it stays Allied, without militia strength, until no "
                "Allied unit is left there and a Communist counter enters it (Towns case H; decisions D-55, "
                "D-71).",
                result={"town": target, "militia": 0},
                places=[target],
            )
        if not self.combat_units_at(target, enemy) and target in self.data.towns:
            if enemy == "Allied" and self.town[target] != "nlf":
                yield from self.capture_town(
                    target,
                    "Communist",
                    "YOTR-TWN-PROC",
                    f"The result against the defender eliminates the militia of "
                    f"{self.hex_name(target)}: an NLF militia counter marks Communist "
                    "control.",
                )
            elif enemy == "Communist" and self.town[target] == "nlf":
                yield from self.capture_town(
                    target,
                    "Allied",
                    "YOTR-TWN-M",
                    f"The NLF militia of {self.hex_name(target)} is eliminated: the "
                    "Allies retake the town, its printed militia is restored and the NLF "
                    "counter is turned face down.",
                )
        if advance and not self.combat_units_at(target, enemy) and not self.is_target(target, side):
            yield from self.advance_after_combat(side, target, attackers)

    def retake_unheld(self, h: str):
        """D-55: an Allied unit entering a Communist-held town whose NLF militia was eliminated (and no Communist
        unit is left there) retakes it (YOTR-TWN-M)."""
        if h in self.militia_gone and self.town[h] == "nlf" and not self.occupied_by(h, "Communist"):
            yield from self.capture_town(
                h,
                "Allied",
                "YOTR-TWN-M",
                f"{self.hex_name(h)} has lost its NLF militia "
                "and no Communist unit is left there: the Allied unit entering it retakes "
                "the town and its printed militia is restored (decision D-55).",
            )

    def sc_surrounded(self, h: str) -> bool:
        """D-27: every hex around the Supply Center is Allied-occupied or in an Allied zone (sea counts)."""
        z = self.zoc("Allied")
        adj = self.data.adj[h]
        return all(self.data.terrain(n) == "sea" or n in z or self.occupied_by(n, "Allied") for n in adj)

    def destroy_sc(self, h: str, result: str):
        self.sc_destroyed.add(h)
        self.touch()
        yield self.ruling(
            "YOTR-SUP-D",
            f"Supply Center {self.hex_name(h)} destroyed",
            f"The Supply Center is destroyed ({result}) for the rest of the game: no supply can be "
            "drawn from it and no militia counter replaces it.",
            result={"sc": h},
            places=[h],
        )
        for u in self.units_at(h):
            if self.is_supply_unit(u):
                self.face_up.add(u)
                self.place(u, "eliminated")
                yield self.ruling(
                    "YOTR-SUP-D",
                    f"Supply unit {u} destroyed",
                    f"The {'real' if self.counters[u].unit_type == 'supply_real' else 'dummy'} "
                    f"supply unit {u} on the destroyed Supply Center is shown to the Allied player and "
                    "destroyed.",
                    changes=[{"unit": u, "from": h, "to": "eliminated"}],
                    places=[h],
                )

    def capture_town(self, h: str, by: str, rule: str, why: str):
        """YOTR-TWN-PROC / YOTR-TWN-M / YOTR-TWN-H: a town changes hands and victory points follow."""
        old = self.town[h]
        new = "nlf" if by == "Communist" else "retaken"
        self.town[h] = new
        self.militia_gone.discard(h)
        self.touch()
        yield self.ruling(
            rule,
            f"{self.hex_name(h)} taken by the {by}",
            why,
            result={"town": h, "from": old, "to": new},
            changes=[{"town": h, "from": old, "to": new}],
            places=[h],
        )
        yield from self.check_victory()

    # ------------------------------------------------------------------ losses, retreats, advances
    def eliminate(self, uid: str, why: str, ground: bool = True):
        h = self.loc[uid]
        if ground and self.full_nva(uid):
            self.bg.add(uid)
            self.touch()
            yield self.ruling(
                "YOTR-CBT-Q",
                f"{uid} becomes a Battlegroup",
                f"{self.describe(uid)} is eliminated: "
                f"{why}; a full-strength NVA unit is replaced in its hex by a {self.bg_values()} Battlegroup, which "
                "is not forced to retreat (Combat case Q).",
                result={"unit": uid, "bg": True},
                places=[h],
            )
            return
        self.place(uid, "eliminated")
        self.pinned.discard(uid)
        self.disrupted.discard(uid)
        yield self.ruling(
            "YOTR-CBT-CRT",
            f"{uid} eliminated",
            f"{self.describe(uid)} in {h} is eliminated: {why}.",
            changes=[{"unit": uid, "from": h, "to": "eliminated"}],
            places=[h],
        )

    def retreat_options(self, uid: str, n: int) -> list[str]:
        """D-05 / YOTR-ZOC-D: the hexes exactly ``n`` away that ``uid`` can retreat to, step by step."""
        d = self.data
        h0 = self.loc[uid]
        u = self.counters[uid]
        side = u.side
        ezoc = self.zoc_for_tracing(self.enemy_of(side))
        if u.nationality == "USA" and h0 in d.towns and d.towns[h0].kind == "base":
            return sorted(
                h for h, p in d.towns.items() if p.kind == "base" and h != h0 and self.friendly_town(h)
            )
        frontier = {h0}
        for i in range(1, n + 1):
            nxt = set()
            for h in frontier:
                for m in d.adj[h]:
                    if d.grid.distance(h0, m) != i or m in nxt:
                        continue
                    if self.may_enter_terrain(uid, h, m) or self.enemy_blocks(uid, m) or m in ezoc:
                        continue
                    nxt.add(m)
            frontier = nxt
        out = set(frontier)
        if u.airmobile and u.nationality == "ARVN" and h0 in d.towns:
            out |= {h for h in d.towns if h != h0 and self.friendly_town(h)}  # D-06
        return sorted(out)

    def retreat(self, uid: str, n: int):
        if self.loc[uid] in ("eliminated", "removed"):
            return
        opts = self.retreat_options(uid, n)
        h0 = self.loc[uid]
        if not opts:
            yield from self.eliminate(uid, f"it cannot retreat {n} hex(es) (decision D-05; Movement case S)")
            return
        side = self.side_of(uid)
        if len(opts) == 1:
            to = opts[0]
        else:
            acts = [
                Action.make(
                    "retreat", f"Retreat {self.describe(uid)} to {self.hex_name(h)}", [h], unit=uid, to=h
                )
                for h in opts
            ]
            act = yield self.decide(
                side,
                f"Retreat {self.describe(uid)} {n} hex(es) from {h0}",
                "YOTR-ZOC-D",
                acts,
                kind="retreat",
            )
            to = act["to"]
        self.place(uid, to)
        yield self.ruling(
            "YOTR-ZOC-D",
            f"{uid} retreats",
            f"{self.describe(uid)} retreats from {h0} to "
            f"{self.hex_name(to)}, away from the enemy and never into an enemy zone without a friendly "
            "unit (decision D-05; no movement points, Movement case K).",
            changes=[{"unit": uid, "from": h0, "to": to}],
            places=[h0, to],
            side=side,
        )
        if side == "Allied":
            yield from self.retake_unheld(to)
        if (
            side == "Communist"
            and to in self.data.towns
            and self.town[to] != "nlf"
            and self.allied_militia(to) == 0
            and not self.occupied_by(to, "Allied")
        ):
            yield from self.capture_town(
                to,
                "Communist",
                "YOTR-TWN-H",
                f"A Communist unit retreating into the "
                f"empty strength-0 town {self.hex_name(to)} takes it (decision D-19).",
            )

    def advance_after_combat(self, side: str, target: str, attackers: list[str]):
        """YOTR-CBT-L / D-43: surviving attackers may move into the emptied hex at once."""
        moved: list[str] = []
        while True:
            cand = [
                u
                for u in attackers
                if self.loc[u] in self.data.adj.get(target, ())
                and u not in moved
                and self.counters[u].nationality != "USA"
                and self.may_enter_terrain(u, self.loc[u], target) is None
                and self.enemy_blocks(u, target) is None
            ]
            if not cand:
                return
            opts = [
                Action.make("advance", f"Advance {self.describe(uid)} into {target}", [target], unit=uid)
                for uid in cand
            ]
            opts.append(Action.make("stop", "No (further) advance"))
            act = yield self.decide(
                side, f"Advance after combat into {target}?", "YOTR-CBT-L", opts, kind="advance"
            )
            if act.kind == "stop":
                return
            uid = act["unit"]
            frm = self.loc[uid]
            self.place(uid, target)
            moved.append(uid)
            yield self.ruling(
                "YOTR-CBT-L",
                f"{uid} advances",
                f"{self.describe(uid)} advances from {frm} into the "
                f"emptied hex {target} at no movement cost.",
                changes=[{"unit": uid, "from": frm, "to": target}],
                places=[frm, target],
                side=side,
            )
            yield from self.check_victory()
