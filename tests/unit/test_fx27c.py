"""fx27c: misreadings `gate_holdout27` showed after its one measure, each mended as a rule.

1. An act ruled out in several places ("no drilling into walls or ceilings") is that act in
   each place, not the act in the first and the second place as a thing ("ceilings": an
   uplighter bounced off the ceiling used nothing ruled out).
2. "hate the feel" (like the taste, the smell, the texture) names a property, no item.
3. "Check the box, though: some sprays include azelastine, which is an antihistamine" tells
   what to look for on a product: no use of antihistamines.
4. What the asker says they want to do ("I want to do it in just a swimsuit") is asked for:
   its words are never members of what the request excludes (wetsuits), also inside a
   compound of the answer ("swimsuit-only").
"""

from __future__ import annotations

import numpy as np

from scoregate.scoring.affirmation import mentions
from scoregate.scoring.membership import check_members
from scoregate.scoring.request_analysis import analyze

LIGHT = "I rent, so no drilling into walls or ceilings and no touching the wiring. Ideas?"
SWIM = (
    "I'm really not a fan of wetsuits, I hate the feel, and I want to do it in just a"
    " swimsuit. How do I start cold water swimming safely?"
)


def test_an_act_in_several_places_is_that_act_in_each() -> None:
    assert analyze(LIGHT).excluded == [
        "drilling into walls",
        "drilling into ceilings",
        "wiring",
    ]
    assert analyze("no painting on brick or stone, any ideas?").excluded == [
        "painting on brick",
        "painting on stone",
    ]


def test_a_list_of_things_is_still_split() -> None:
    assert analyze("no nuts or seeds please").excluded == ["nuts", "seeds"]


def test_the_feel_is_no_item() -> None:
    assert analyze(SWIM).excluded == ["wetsuits"]


def test_a_product_to_check_does_not_use_the_item() -> None:
    answer = (
        "Check the box, though: some combination sprays include azelastine, which is an"
        " antihistamine."
    )
    assert mentions(answer, "antihistamines") == (True, False)
    assert mentions("Take an antihistamine every morning.", "antihistamines")[1]


def test_what_the_asker_wants_is_no_member_of_what_is_excluded() -> None:
    analysis = analyze(SWIM)
    assert "swimsuit" in analysis.asked

    def embed(texts: list[str]) -> np.ndarray:
        # the swimsuit reads as a wetsuit, every other word as far from it
        close = ("wetsuits", "swimsuit-only", "swimsuit")
        return np.array([[1.0, 0.0] if t in close else [0.0, 1.0] for t in texts])

    answer = "Autumn is ideal for swimsuit-only dips, since the water cools slowly."
    found = check_members(
        analysis.excluded, answer, embed=embed, min_cosine=0.5, asked=analysis.asked
    )
    assert found.violated == []
    # the same answer to a request that does not ask for a swimsuit: the member is found
    other = check_members(["wetsuits"], answer, embed=embed, min_cosine=0.5, asked="How?")
    assert [w for _, w in other.violated] == ["swimsuit-only"]
