"""The evaluation of The Builders: Middle Ages positions (see :mod:`builders.ai.evaluate`): per-seat
estimates of final VP from the public part of a position only."""

from __future__ import annotations

MA_COIN = 0.12          # VP per coin (coins pay the workers; 10 coins are 1 VP at the end)
MA_ACTION = 0.25        # VP per action left in the turn (3 actions buy 6 coins)
MA_STAFFED = 0.40       # share of a site's value for holding it open with the free crew to finish it
MA_STAFFED_PROGRESS = 0.45  # more share of a staffed site's value earned by its covered requirement
MA_OPEN = 0.02          # share of a site's value for holding it open without the crew to finish it
MA_PROGRESS = 0.40      # share of such a site's value earned by its covered requirement
MA_ROW = 0.5            # a unit the worker row could give counts this much of a unit of the crew
MA_SPARE_UNIT = 0.05    # VP per unit of free-crew production that no open site needs
MA_MACHINE_UNIT = 0.2   # VP per unit of production of a machine (it joins the crew at no wage)


def _ma_tables():
    from builders.middle_ages.cards import BUILDING_DECK, COST, MACHINES, NUM_CARDS, PROD, REQ, REWARD, VP, unpack

    req = [unpack(REQ[c]) for c in range(NUM_CARDS)]
    prod = [unpack(PROD[c]) for c in range(NUM_CARDS)]
    site_value = [0.0] * NUM_CARDS
    for c in BUILDING_DECK:
        site_value[c] = VP[c] + MA_COIN * REWARD[c] + (MA_MACHINE_UNIT * sum(prod[c]) if c in MACHINES else 0.0)
    total = [max(1, sum(r)) for r in req]
    wage = [COST[c] for c in range(NUM_CARDS)]
    return req, prod, site_value, total, wage


_MA = None


def values(st) -> list[float]:
    """VP and coins; for each open site a share of its value (VP, coins, a machine's production)
    that grows with its covered requirement, and grows much more with the part of what it still
    needs that the seat's free crew (or, at half weight, the worker row) can give and the seat can
    pay the wages of (sites are staffed fewest needs first, from the pooled production); a little
    for free-crew production no site needs; and the actions left in the turn (a seat that is not
    playing counts the actions of its next turn). Sites and workers the seat cannot use are worth
    almost nothing, so opening and recruiting pay only when they lead toward finished buildings."""
    global _MA
    if _MA is None:
        _MA = _ma_tables()
    req, prod, site_value, total, wage = _MA
    from builders.middle_ages.rules import RECRUIT

    n = st.num_players
    out = []
    r0 = r1 = r2 = r3 = 0
    if not st.over:
        for code in st.wrow:
            q = prod[code - RECRUIT]
            r0 += q[0]
            r1 += q[1]
            r2 += q[2]
            r3 += q[3]
    for p in range(n):
        if st.over:
            out.append(st.vp[p] + st.coins[p] // 10 + 0.001 * st.coins[p])
            continue
        coins = st.coins[p]
        v = st.vp[p] + MA_COIN * coins
        k0 = k1 = k2 = k3 = 0
        cost = 0
        for w in st.crew[p]:
            q = prod[w]
            k0 += q[0]
            k1 += q[1]
            k2 += q[2]
            k3 += q[3]
            cost += wage[w]
        units = k0 + k1 + k2 + k3
        unit_wage = cost / units if units else 2.0
        w0, w1, w2, w3 = r0, r1, r2, r3
        needs = []
        for s in st.sites[p]:
            g = st.progress[s]
            r = req[s]
            n0 = r[0] - min(g & 0xFF, r[0])
            n1 = r[1] - min((g >> 8) & 0xFF, r[1])
            n2 = r[2] - min((g >> 16) & 0xFF, r[2])
            n3 = r[3] - min((g >> 24) & 0xFF, r[3])
            needs.append((n0 + n1 + n2 + n3, s, n0, n1, n2, n3))
        needs.sort()
        for need, s, n0, n1, n2, n3 in needs:
            covered = 1.0 - need / total[s]
            value = site_value[s]
            share = MA_OPEN + MA_PROGRESS * covered
            if need:
                c0 = n0 if n0 < k0 else k0
                c1 = n1 if n1 < k1 else k1
                c2 = n2 if n2 < k2 else k2
                c3 = n3 if n3 < k3 else k3
                k0 -= c0
                k1 -= c1
                k2 -= c2
                k3 -= c3
                m0, m1, m2, m3 = n0 - c0, n1 - c1, n2 - c2, n3 - c3
                d0 = m0 if m0 < w0 else w0
                d1 = m1 if m1 < w1 else w1
                d2 = m2 if m2 < w2 else w2
                d3 = m3 if m3 < w3 else w3
                w0 -= d0
                w1 -= d1
                w2 -= d2
                w3 -= d3
                staffed = (c0 + c1 + c2 + c3 + MA_ROW * (d0 + d1 + d2 + d3)) / need
                pay = unit_wage * need
                paid = 1.0 if pay <= coins else coins / pay
                coins = coins - pay if coins > pay else 0
            else:
                staffed = paid = 1.0
            share += staffed * paid * (MA_STAFFED - MA_OPEN + (MA_STAFFED_PROGRESS - MA_PROGRESS) * covered)
            v += value * share
        v += MA_SPARE_UNIT * (k0 + k1 + k2 + k3)
        v += MA_ACTION * (st.actions if p == st.cur else 3)
        out.append(v)
    return out
