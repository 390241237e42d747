"""Look-alike names: the confusable skeleton of a player's name (after Unicode TR39).

Two names whose skeletons are equal look alike on screen (``Alice`` and
``AIice`` with a capital i, ``Bob`` and ``B0b`` with a zero), so a server
refuses a name whose skeleton is already some other player's: otherwise a
player could pass for another in a race room or on a leaderboard.

The skeleton follows TR39 (Unicode Security Mechanisms, section 4): NFD, each
character mapped to its prototype in the confusables table, NFD again; then,
for our purposes, case folded, since names are unique without regard to case
anyway. (Mapping before folding matters: the capital I is confusable with the
small l, the small i is not.)

Python's standard library has no confusables table, and the whole of
Unicode's ``confusables.txt`` (over 6,000 entries) is far more than names of
ASCII letters, digits, ``_`` and ``-`` (docs/protocol.md's name rule) need. So
:data:`CONFUSABLES` is a compact subset of it, with TR39's own prototypes:

- the ASCII look-alikes: ``0`` -> ``O``, ``1`` and ``I`` and ``|`` -> ``l``,
  ``m`` -> ``rn`` (which makes ``rn`` and ``m`` alike);
- the Cyrillic and Greek letters that look like Latin ones: Cyrillic small
  a, ie, o, er, es, u, ha, the Ukrainian i, je, dze, shha, Komi de, qa, we
  and the capitals A, Ve, Ie, Ka, Em, En, O, Er, Es, Te, Ha, the Ukrainian I,
  Je, Dze; Greek capital Alpha, Beta, Epsilon, Zeta, Eta, Iota, Kappa, Mu,
  Nu, Omicron, Rho, Tau, Upsilon, Chi and small omicron, alpha, nu, iota, rho
  (written out in the table below), so that the table keeps holding if the
  name rule ever admits them;
- the Latin small dotless i -> ``i`` (NFD leaves it alone).

What it does not cover: the rest of ``confusables.txt`` (mathematical
alphanumerics, fullwidth forms, other scripts, symbols), TR39's other
checks (mixed scripts, restriction levels), and likeness that is a matter of
font (``rn`` for ``m`` is in, ``vv`` for ``w`` and ``cl`` for ``d`` are not).
Pure: no I/O, no state.
"""

from __future__ import annotations

import unicodedata

#: character -> its TR39 prototype (a compact subset of confusables.txt; see above)
CONFUSABLES: dict[str, str] = {
    # ASCII
    "0": "O",
    "1": "l",
    "I": "l",
    "|": "l",
    "m": "rn",
    # Latin beyond ASCII
    "\u0131": "i",  # latin small letter dotless i
    # Cyrillic small
    "\u0430": "a",  # cyrillic small letter a
    "\u0435": "e",  # cyrillic small letter ie
    "\u043e": "o",  # cyrillic small letter o
    "\u0440": "p",  # cyrillic small letter er
    "\u0441": "c",  # cyrillic small letter es
    "\u0443": "y",  # cyrillic small letter u
    "\u0445": "x",  # cyrillic small letter ha
    "\u0456": "i",  # cyrillic small letter byelorussian-ukrainian i
    "\u0458": "j",  # cyrillic small letter je
    "\u0455": "s",  # cyrillic small letter dze
    "\u04bb": "h",  # cyrillic small letter shha
    "\u0501": "d",  # cyrillic small letter komi de
    "\u051b": "q",  # cyrillic small letter qa
    "\u051d": "w",  # cyrillic small letter we
    # Cyrillic capital
    "\u0410": "A",  # cyrillic capital letter a
    "\u0412": "B",  # cyrillic capital letter ve
    "\u0415": "E",  # cyrillic capital letter ie
    "\u041a": "K",  # cyrillic capital letter ka
    "\u041c": "M",  # cyrillic capital letter em
    "\u041d": "H",  # cyrillic capital letter en
    "\u041e": "O",  # cyrillic capital letter o
    "\u0420": "P",  # cyrillic capital letter er
    "\u0421": "C",  # cyrillic capital letter es
    "\u0422": "T",  # cyrillic capital letter te
    "\u0425": "X",  # cyrillic capital letter ha
    "\u0406": "l",  # cyrillic capital letter byelorussian-ukrainian i
    "\u0408": "J",  # cyrillic capital letter je
    "\u0405": "S",  # cyrillic capital letter dze
    # Greek capital
    "\u0391": "A",  # greek capital letter alpha
    "\u0392": "B",  # greek capital letter beta
    "\u0395": "E",  # greek capital letter epsilon
    "\u0396": "Z",  # greek capital letter zeta
    "\u0397": "H",  # greek capital letter eta
    "\u0399": "l",  # greek capital letter iota
    "\u039a": "K",  # greek capital letter kappa
    "\u039c": "M",  # greek capital letter mu
    "\u039d": "N",  # greek capital letter nu
    "\u039f": "O",  # greek capital letter omicron
    "\u03a1": "P",  # greek capital letter rho
    "\u03a4": "T",  # greek capital letter tau
    "\u03a5": "Y",  # greek capital letter upsilon
    "\u03a7": "X",  # greek capital letter chi
    # Greek small
    "\u03bf": "o",  # greek small letter omicron
    "\u03b1": "a",  # greek small letter alpha
    "\u03bd": "v",  # greek small letter nu
    "\u03b9": "i",  # greek small letter iota
    "\u03c1": "p",  # greek small letter rho
}

#: the longest skeleton of a name of 24 characters (each maps to at most two)
MAX_SKELETON = 48


def skeleton(name: str) -> str:
    """The confusable skeleton of ``name``: NFD, prototypes, NFD, case folded. Two names
    look alike exactly when their skeletons are equal (within :data:`CONFUSABLES`)."""
    mapped = "".join(CONFUSABLES.get(c, c) for c in unicodedata.normalize("NFD", name))
    return unicodedata.normalize("NFD", mapped).casefold()


def look_alike(a: str, b: str) -> bool:
    """``a`` and ``b`` have the same skeleton."""
    return skeleton(a) == skeleton(b)


__all__ = ["CONFUSABLES", "MAX_SKELETON", "look_alike", "skeleton"]
