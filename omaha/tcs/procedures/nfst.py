"""Naval Fire Support Teams (2.6d, optional): assigned before play, radios tried on landing."""

from __future__ import annotations

from collections.abc import Iterator

from omaha.kernel.actions import Action
from omaha.kernel.events import register_templates
from omaha.tcs.actions import AssignNfst
from omaha.tcs.core import Decision, TcsCore
from omaha.tcs.rules import nfst_works

register_templates(
    {
        "tcs.nfst.assigned": "NFSTs assigned: {teams}",
        "tcs.nfst.roll": "NFST of {battalion} lands with {unit}: {result}",
    }
)


def battalions(core: TcsCore) -> list[str]:
    """The landing battalions: each has one NFST."""
    units = core.scenario.oob.units
    return sorted({u.battalion for u in units if u.type.name == "infantry" and u.battalion})


def step_nfst(core: TcsCore) -> bool:
    """TCS Omaha 2.6d (optional): one NFST per landing battalion, on an infantry unit."""
    if not core.scenario.nfst:
        return True
    for bn in battalions(core):
        if bn not in core.nfst:
            return core.set_wait(
                Decision.NFST, "US", f"assign the NFST of {bn} to an infantry unit"
            )
    core.note(
        "tcs.nfst.assigned",
        "2.6d",
        player="US",
        teams=[f"{bn}: {v[0]}" for bn, v in sorted(core.nfst.items())],
    )
    return True


def legal_nfst(core: TcsCore) -> Iterator[Action]:
    for bn in battalions(core):
        if bn not in core.nfst:
            for u in core.scenario.oob.units:
                if u.battalion == bn and u.type.name == "infantry":
                    yield AssignNfst.of(bn, u.id)
            return


def apply_nfst(core: TcsCore, action: Action) -> None:
    assert isinstance(action, AssignNfst)
    core.nfst[action.battalion] = [action.unit, "assigned"]


def explain_nfst(core: TcsCore, action: Action) -> str:
    if isinstance(action, AssignNfst):
        return f"{action.unit} is not an infantry unit of {action.battalion} (2.6d)"
    return ""


def nfst_lands(core: TcsCore, uid: str) -> None:
    """TCS Omaha 2.6d: an NFST landing on the beach rolls a die: its radio works on a 6."""
    for bn, entry in sorted(core.nfst.items()):
        if entry[0] == uid and entry[1] == "assigned":
            d = core.dice.d6()
            works = nfst_works(d, core.scenario.tables)
            entry[1] = "working" if works else "radio dead"
            if works:
                core.bump("nfst_working")
            core.note(
                "tcs.nfst.roll",
                "2.6d",
                dice=(d,),
                player="US",
                battalion=bn,
                unit=uid,
                result=entry[1],
            )
