"""The profile nobody named: ./agentconf.toml, found the same way by `agentconf run`, `replay`,
`snapshots` and the pytest plugin, so that both front doors check the same implementation with
the same names, limits and expected failures, and the first line of a run says which it is.

It is used when no profile is given and no implementation is named other than the one it
describes: with no --impl, with an --impl equal to its `[implementation].spec`, or when it
names none (a profile that only maps names).
"""

from dataclasses import dataclass
from pathlib import Path

PROFILE_NAME = "agentconf.toml"


@dataclass(frozen=True, slots=True)
class Choice:
    impl: str | None
    profile: str | None
    # How the implementation was chosen, when the user did not name it all: for the first line.
    origin: str = ""


def choose(impl: str | None, profile: str | None, folder: Path) -> Choice:
    """What to check, given --impl and --profile as typed in `folder`."""
    found = folder / PROFILE_NAME
    if profile is not None or not found.is_file():
        if impl is None and profile is None:
            return Choice(None, None, "the built-in reference: no --impl was given and there is "
                                      f"no {PROFILE_NAME} here, so nothing of yours is checked")
        return Choice(impl, profile)
    if impl is not None and (folder / impl.strip()).is_file():
        return Choice(impl, None)  # --impl names a profile file: that one, and no other
    named = _spec_of(found)
    if impl is None or named is None or named == impl.strip():
        return Choice(impl, PROFILE_NAME, f"with ./{PROFILE_NAME}, found in this folder")
    return Choice(impl, None, f"./{PROFILE_NAME} is not used: it names {named}")


def _spec_of(path: Path) -> str | None:
    """The profile's `[implementation].spec`; None when it names none or cannot be read (a
    broken profile is then used, so that its error is reported with the file's name)."""
    from agentconf.harness.profile.model import ProfileError, load_profile

    try:
        spec = load_profile(str(path)).spec
    except (ProfileError, OSError):
        return None
    return spec.strip() if isinstance(spec, str) else None
