"""answer_support / analyze_answer: support *as an answer to the question*, on HaluEval rows
copied as literals (questions, passages and right answers of shared/data/halueval_qa_dev.jsonl)."""

from __future__ import annotations

import pytest

import assay
import assay_faithfulness as af
from assay_faithfulness import answer_relation
from assay_faithfulness import answer_text as text
from assay_faithfulness.answer_support import clear_answer_caches

OBEROI_Q = "The Oberoi family is part of a hotel company that has a head office in what city?"
OBEROI = (
    "The Oberoi family is an Indian family that is famous for its involvement in hotels, namely "
    "through The Oberoi Group.The Oberoi Group is a hotel company with its head office in Delhi."
)
THICKE_Q = (
    "Celebrity Cooking Showdown was hosted by a Canadian actor who was best known for his role "
    "as Jason Seaver on what television series?"
)
THICKE = (
    " It was hosted by Alan Thicke.Alan Willis Thicke (born Alan Willis Jeffrey; March 1, 1947 – "
    "December 13, 2016) was a Canadian actor, songwriter, game and talk show host. He was best "
    'known for his role as Jason Seaver, the father on the ABC television series "Growing Pains", '
    "which ran for seven seasons."
)
VEASEY_Q = "Are Pam Veasey and Jon Jost both American?"
VEASEY = (
    "Pamela Renea Veasey (born May 25, 1962) is an American television writer, producer and "
    "director.Jon Jost (born 16 May 1943 in Chicago) is an American independent filmmaker."
)
OK_GO_Q = "Were the bands  OK Go and The New Pornographers formed in the same city?"
OK_GO = (
    "OK Go is an American rock band originally from Chicago, Illinois, now based in Los Angeles, "
    "California.The New Pornographers is a Canadian indie rock band formed in 1997 in Vancouver, "
    "British Columbia."
)
JENKINS_Q = "What year did the chairman of the Jenkins Commission die?"
JENKINS = (
    "The Independent Commission on the Voting System, popularly known as the Jenkins Commission "
    "after its chairman Roy Jenkins, was a commission into possible reform of the United Kingdom "
    "electoral system.Roy Harris Jenkins, Baron Jenkins of Hillhead, (11 November 1920 – 5 "
    "January 2003) was a British Labour Party, SDP and Liberal Democrat politician, and "
    "biographer of British political leaders."
)
SAVAGE_Q = "When was the American rapper from Atlanta, Georgia born who's song is \"Sneakin'\"?"
SAVAGE = (
    '"Sneakin\'" is a song by Canadian rapper Drake and American rapper 21 Savage.Shayaa Bin '
    "Abraham-Joseph (born October 22, 1992), better known by his stage name 21 Savage, is an "
    "American rapper from Atlanta, Georgia."
)


def score(question: str | None, answer: str, *contexts: str) -> float:
    value = af.analyze_answer(question, answer, contexts).score
    assert value is not None
    return value


def unsupported_kinds(question: str | None, answer: str, *contexts: str) -> set[str]:
    return {item.kind for item in af.analyze_answer(question, answer, contexts).unsupported}


def test_a_name_from_the_same_passage_that_is_not_what_is_asked_scores_lower() -> None:
    assert score(OBEROI_Q, "Delhi", OBEROI) > score(OBEROI_Q, "Indian", OBEROI)
    assert score(THICKE_Q, "Growing Pains", THICKE) > score(THICKE_Q, "Alan Thicke", THICKE)
    evidence = af.analyze_answer(THICKE_Q, "Alan Thicke", [THICKE])
    (item,) = evidence.unsupported
    assert item.kind == "name" and item.text == "Alan Thicke"
    assert "'Growing Pains'" in item.reason
    assert not evidence.claims[0].supported
    # claim_support cannot tell them apart: both names stand in the passage
    sample = assay.EvalSample(question=THICKE_Q, answer="Alan Thicke", contexts=[THICKE])
    assert af.score_sample(sample, ["claim_support"])["claim_support"].score == 1.0


def test_a_bare_yes_or_no_is_checked_against_what_the_passage_states() -> None:
    assert score(VEASEY_Q, "yes", VEASEY) > score(VEASEY_Q, "no", VEASEY)
    assert score(OK_GO_Q, "no", OK_GO) > score(OK_GO_Q, "Yes", OK_GO)
    assert unsupported_kinds(VEASEY_Q, "No.", VEASEY) == {"yes-no"}
    # a leading yes/no is checked as well; the rest of the claim still has to be stated
    assert score(VEASEY_Q, "Yes, both are American.", VEASEY) > score(
        VEASEY_Q, "No, both are American.", VEASEY
    )


HOBBS_Q = "Are Robin Hobb and Winston Churchill both American writers?"
HOBBS = (
    "Robin Hobb is the pen name of Margaret Astrid Lindholm Ogden (born March 5, 1952), an "
    "American writer.Sir Winston Leonard Spencer-Churchill (30 November 1874 - 24 January "
    "1965) was a British statesman, army officer, and writer."
)
HALESTORM_Q = 'Are the bands "Halestorm" and "Say Anything" from different states?'
HALESTORM = (
    "Halestorm is an American hard rock band from Red Lion, Pennsylvania, consisting of lead "
    "vocalist and guitarist Lzzy Hale.Say Anything is an American rock band from Los Angeles, "
    "California."
)
PIZZA_Q = "Do Frank Pepe Pizzeria Napoletana and Sarpino's Pizzeria both sell pizza?"
PIZZA = (
    "Frank Pepe Pizzeria Napoletana, known locally as Pepe's, is a popular pizza restaurant in "
    "the Wooster Square neighborhood of New Haven, Connecticut.Sarpino's Pizzeria is a fast "
    "food restaurant chain specializing in pizza."
)
UWF_Q = "Are the University of West Florida and FH Joanneum both American Universities ?"
UWF = (
    "The University of West Florida, also known as West Florida and UWF, is a mid-sized public "
    "university located in Pensacola, Florida, United States.FH Joanneum is one of the largest "
    "Universities of Applied Sciences in Austria."
)
AIRPORTS_Q = (
    "Are San Diego International Airport and McCarran International Airport located in the "
    "same state?"
)
AIRPORTS = (
    "San Diego International Airport (IATA: SAN, ICAO: KSAN, FAA LID: SAN) , formerly known as "
    "Lindbergh Field, is an international airport 3 mi northwest of Downtown San Diego, "
    "California, United States.McCarran International Airport (IATA: LAS, ICAO: KLAS, FAA LID: "
    "LAS) is the primary commercial airport serving the Las Vegas Valley, a major metropolitan "
    "area in the U.S. state of Nevada."
)
ALICE_Q = "Did both movies, Alice's Birthday and Eleanor's Secret, come out in the same year ?"
ALICE = (
    "Alice's Birthday (Russian: Де́нь рожде́ния Али́сы , translit. Den' rozhdeniya Alisy), is a "
    "2009 Russian traditionally animated children's science fiction film, directed by Sergey "
    "Seryogin and produced by Master-film studio.Eleanor's Secret (original French title Kérity, "
    "la maison des contes) is a 2009 Franco-Italian animated feature film directed by Dominique "
    "Monféry."
)
TIGER_Q = "Are A Tiger Walks and A Kid in King Arthur's Court both family films?"
TIGER = (
    "A Tiger Walks is a 1964 family drama film, directed by Norman Tokar and produced by Walt "
    "Disney Productions.A Kid in King Arthur's Court is a 1995 Disney family film directed by "
    "Michael Gottlieb."
)
GIN_Q = "Are Gin and tonic and Paloma both cocktails based on tequila?"
GIN = (
    "A gin and tonic is a highball cocktail made with gin and tonic water poured over ice.The "
    'paloma (Spanish for "dove") is a tequila-based cocktail.'
)


@pytest.mark.parametrize(
    ("question", "passage", "right", "wrong"),
    [
        # a name or nationality the question asks weighs more than a common word ("writer")
        (HOBBS_Q, HOBBS, "no", "yes"),
        # "different states" compares the places after "from", read by stem ("states")
        (HALESTORM_Q, HALESTORM, "yes", "no"),
        # "sell" is in no passage, so it weighs little; "pizza" is in both
        (PIZZA_Q, PIZZA, "yes", "no"),
        # "Gin and tonic" is one entity, as the passage writes it, linked to "Paloma"
        (GIN_Q, GIN, "no", "yes"),
        # "American" is said by "United States"; "West Florida and UWF" does not swallow the "and"
        (UWF_Q, UWF, "no", "yes"),
        # the airport codes in parentheses are no state both share
        (AIRPORTS_Q, AIRPORTS, "no", "yes"),
        # the first sentence ends at "translit."; the year is read from the next one
        (ALICE_Q, ALICE, "yes", "no"),
        # the name runs on through "in" as the passage writes it: "King Arthur's Court" is not
        # said of "A Tiger Walks"
        (TIGER_Q, TIGER, "yes", "no"),
    ],
)
def test_a_yes_no_answer_follows_what_the_passage_says_of_each_entity(
    question: str, passage: str, right: str, wrong: str
) -> None:
    assert score(question, right, passage) > score(question, wrong, passage)
    assert unsupported_kinds(question, wrong, passage) == {"yes-no"}


def test_an_answer_naming_neither_option_or_no_content_word_is_off_the_question() -> None:
    question = "Which publication is published more often: Modern Drummer or Bookmarks?"
    passage = (
        "Modern Drummer is a monthly publication targeting the interests of drummers and "
        "percussionists.Bookmarks is a bimonthly American literary magazine dedicated to "
        "general readers, book groups, and librarians."
    )
    assert score(question, "Modern Drummer", passage) > score(question, "American", passage)
    assert unsupported_kinds(question, "American", passage) == {"relation"}
    town_q = "The creation of Fontana Lake submerged Proctor, North Carolina and what other town?"
    town = (
        "Many towns were submerged shortly after the creation of Fontana Lake, such as Proctor "
        "and Judson."
    )
    # "After" stands in the passage ("shortly after") but has no content word
    assert score(town_q, "Judson", town) > score(town_q, "After", town)
    assert unsupported_kinds(town_q, "After", town) == {"relation"}


def test_a_bare_name_is_not_checked_for_negation() -> None:
    question = (
        "Dan Aykroyd was an original member of the Not Ready for Prime Time Players on what show?"
    )
    passage = (
        'He was an original member of the "Not Ready for Prime Time Players" on "Saturday '
        'Night Live" (1975–1979).'
    )
    evidence = af.analyze_answer(question, "Saturday Night Live", [passage])
    assert "negation" not in {item.kind for item in evidence.unsupported}
    assert evidence.score is not None and evidence.score > 0.9


def test_a_number_is_the_one_the_question_asks_about() -> None:
    # "(11 November 1920 – 5 January 2003)": the second date is the death
    assert score(JENKINS_Q, "2003", JENKINS) > score(JENKINS_Q, "1920", JENKINS)
    assert unsupported_kinds(JENKINS_Q, "1920", JENKINS) == {"number"}
    # a date is checked as written: "21" stands in the passage ("21 Savage"), but no context
    # has "October 21" or "21, 1992"
    right = af.analyze_answer(SAVAGE_Q, "October 22, 1992", [SAVAGE])
    wrong = af.analyze_answer(SAVAGE_Q, "October 21, 1992", [SAVAGE])
    assert right.score is not None and wrong.score is not None
    assert right.score > wrong.score
    assert [item.text for item in wrong.unsupported] == ["21", "1992"]
    assert right.unsupported == ()


def test_negation_is_checked_against_the_stating_sentence() -> None:
    passage = "Ethanol is a volatile, flammable, colorless liquid with a slight odor."
    question = "What is ethanol?"
    stated = af.analyze_answer(question, "Ethanol is a flammable colorless liquid.", [passage])
    negated = af.analyze_answer(question, "Ethanol is not a flammable colorless liquid.", [passage])
    assert stated.score is not None and negated.score is not None
    assert stated.score > negated.score
    assert [item.kind for item in negated.unsupported] == ["negation"]
    assert not negated.claims[0].supported


@pytest.mark.parametrize(
    "answer",
    [
        "James K. Polk.",
        "The U.S. Army was led by Dr. Smith of St. Louis.",
        "J. R. R. Tolkien wrote it.",
    ],
)
def test_initials_and_abbreviations_stay_inside_one_claim(answer: str) -> None:
    evidence = af.analyze_answer("Who?", answer, ["Unrelated passage."])
    assert [claim.text for claim in evidence.claims] == [answer]


def test_a_claim_ends_at_a_sentence_end_even_without_a_space() -> None:
    assert text.sentence_spans("It was founded in 1844.First for Women came later.") == [
        (0, 23),
        (23, 50),
    ]
    assert len(af.analyze_answer("Who?", "No. It is not.", ["x"]).claims) == 2


@pytest.mark.parametrize(
    ("answer", "passage"),
    [
        ("churro", "Churros are fried-dough pastries."),
        ("boxes", "He packed the box."),
        ("studied physics", "She studies physics."),
        ("founded the company", "He is founding a company."),
        ("women's magazine", "It is a woman's magazine."),
        ("based in Paris", "The firm is based in Paris."),
    ],
)
def test_plural_and_simple_inflection_match(answer: str, passage: str) -> None:
    evidence = af.analyze_answer("What?", answer, [passage])
    assert evidence.unsupported == ()
    assert evidence.claims[0].span is not None


def test_offsets_and_spans_point_into_the_answer_and_the_contexts() -> None:
    contexts = [THICKE, OBEROI]
    answer = "Alan Thicke was a Canadian actor. The Oberoi Group has its head office in Delhi!"
    evidence = af.analyze_answer("Who?", answer, contexts)
    assert len(evidence.claims) == 2
    for claim in evidence.claims:
        assert answer[claim.start : claim.end] == claim.text
        assert claim.span is not None
        assert contexts[claim.span.context_index][claim.span.start : claim.span.end] == (
            claim.span.text
        )
    assert [claim.span.context_index for claim in evidence.claims if claim.span] == [0, 1]
    assert evidence.total_claims == 2 and evidence.supported_claims == 2


def test_without_contexts_or_words_the_score_is_undetermined() -> None:
    assert af.analyze_answer(OBEROI_Q, "Delhi", []).score is None
    for answer in ("", "   ", "...", "?!"):
        evidence = af.analyze_answer(OBEROI_Q, answer, [OBEROI])
        assert evidence.score is None and evidence.claims == ()
        assert "no words" in evidence.reason


def test_without_a_question_the_answer_is_checked_as_a_statement() -> None:
    assert score(None, "The Oberoi Group has its head office in Delhi.", OBEROI) > 0.9
    assert score(None, "Mumbai", OBEROI) < 0.5


def test_the_reason_agrees_with_the_score() -> None:
    answers = [
        (OBEROI_Q, "Delhi", OBEROI),
        (OBEROI_Q, "The Oberoi family's hotel company is based in Mumbai.", OBEROI),
        (THICKE_Q, "Alan Thicke", THICKE),
        (VEASEY_Q, "no", VEASEY),
        (JENKINS_Q, "2003", JENKINS),
        (SAVAGE_Q, "October 21, 1992", SAVAGE),
    ]
    threshold = af.AnswerSupport.default_threshold
    for question, answer, passage in answers:
        evidence = af.analyze_answer(question, answer, [passage])
        assert evidence.score is not None
        passing = [claim for claim in evidence.claims if claim.support >= threshold]
        counts = f"{len(passing)}/{evidence.total_claims} claim(s) supported"
        assert evidence.reason.startswith(counts)
        assert f"score={evidence.score:.3f}" in evidence.reason
        if len(passing) == evidence.total_claims:
            assert evidence.score >= threshold
        for item in evidence.unsupported:
            assert repr(item.text) in evidence.reason or "more)" in evidence.reason


def test_a_supported_claim_with_a_doubt_is_counted_supported_and_its_doubt_named() -> None:
    # HaluEval dev row 7: the right answer passes (0.92), but the detector doubts the name,
    # since another capitalised passage word ("Fighters") fits the question's words too
    question = (
        "Who was once considered the best kick boxer in the world, however he has been "
        'involved in a number of controversies relating to his "unsportsmanlike conducts" '
        "in the sport and crimes of violence outside of the ring."
    )
    passage = (
        " Fighters from around world on the roster include Badr Hari, Peter Aerts, Peter "
        "Graham, Dewey Cooper, Zabit Samedov. It was considered as one of the biggest "
        "kickboxing and MMA promotion in Middle East.Badr Hari (born 8 December 1984) is a "
        "Moroccan-Dutch super heavyweight kickboxer from Amsterdam. Hari has been a prominent "
        "figure in the world of kickboxing and was once considered the best kickboxer in the "
        "world, however he has been involved in a number of controversies relating to his "
        '"unsportsmanlike conducts" in the sport and crimes of violence outside of the ring.'
    )
    evidence = af.analyze_answer(question, "Badr Hari", [passage])
    (claim,) = evidence.claims
    assert evidence.score is not None and evidence.score >= af.AnswerSupport.default_threshold
    assert claim.unsupported and not claim.supported  # a doubt: not supported beyond doubt
    assert evidence.reason.startswith(
        "1/1 claim(s) supported as an answer to the question, 1 of them with a doubt;"
    )
    assert " Doubt: name 'Badr Hari'" in evidence.reason and "Unsupported:" not in evidence.reason
    sample = assay.EvalSample(question=question, answer="Badr Hari", contexts=[passage])
    result = af.score_sample(sample, ["answer_support"])["answer_support"]
    assert result.passed and result.explanation == evidence.reason
    assert result.details["supported_claims"] == 1 and result.details["doubted_claims"] == 1


def test_it_is_deterministic_with_cold_or_warm_caches() -> None:
    first = af.analyze_answer(THICKE_Q, "Growing Pains", [THICKE])
    assert af.analyze_answer(THICKE_Q, "Growing Pains", [THICKE]) == first
    clear_answer_caches()
    assert text.text_info.cache_info().currsize == 0
    assert answer_relation._name_table.cache_info().currsize == 0
    assert af.analyze_answer(THICKE_Q, "Growing Pains", [THICKE]) == first


def test_contradicting_contexts_are_reported() -> None:
    contexts = [
        "Peggy Seeger (born June 17, 1935) is an American folksinger.",
        "Peggy Seeger (born June 17, 1936) is a singer.",
    ]
    evidence = af.analyze_answer("When was Peggy Seeger born?", "1935", contexts)
    assert evidence.conflicts == (
        "contexts[0] gives 1935 and contexts[1] gives 1936 for 'Peggy Seeger ... born'.",
    )
    assert "contradict" in evidence.reason
    assert af.analyze_answer("When?", "1935", contexts[:1]).conflicts == ()


def test_bad_input_raises_coded_errors() -> None:
    with pytest.raises(assay.AssayError) as answer:
        af.analyze_answer("Q?", None, ["c"])  # type: ignore[arg-type]
    with pytest.raises(assay.AssayError) as question:
        af.analyze_answer(3, "a", ["c"])  # type: ignore[arg-type]
    with pytest.raises(assay.AssayError) as contexts:
        af.analyze_answer("Q?", "a", "one context")
    with pytest.raises(assay.AssayError) as item:
        af.analyze_answer("Q?", "a", ["c", 4])  # type: ignore[list-item]
    assert answer.value.code == "MISSING_ANSWER" and answer.value.path == "answer"
    assert question.value.code == "INVALID_SAMPLE" and question.value.path == "question"
    assert contexts.value.code == "INVALID_CONTEXTS" and contexts.value.path == "contexts"
    assert item.value.path == "contexts[1]"


def test_the_metric_is_registered_outside_the_default_set() -> None:
    registry = assay.build_registry()
    assert isinstance(registry.metric("faithfulness/answer_support"), af.AnswerSupport)
    assert "answer_support" not in registry.get("metric-set", "faithfulness/default")
    assert "answer_support" not in af.WIRE_IDS  # the seven compatible metrics only
    assert af.get_metric("answerSupport") is af.get_metric("answer_support")
    sample = assay.EvalSample(question=THICKE_Q, answer="Alan Thicke", contexts=[THICKE])
    result = af.score_sample(sample, ["answerSupport"])["answer_support"]
    evidence = af.analyze_answer(THICKE_Q, "Alan Thicke", [THICKE])
    assert evidence.score is not None
    assert result.score == evidence.score and result.explanation == evidence.reason
    assert result.passed is (evidence.score >= af.AnswerSupport.default_threshold)
    # the claim reaches the claim threshold, with a doubt on the name (the detector's
    # ``supported`` is False): the details count it as the reason does
    assert not evidence.claims[0].supported
    assert result.details["total_claims"] == 1 and result.details["supported_claims"] == 1
    assert result.details["doubted_claims"] == 1
    wire = af.result_to_wire(result)
    assert wire["metricId"] == "answerSupport"
    assert [s["severity"] for s in wire["signals"]] == ["critical"]


def test_the_feature_weights_follow_the_features() -> None:
    reader = answer_relation._readers(THICKE_Q, (THICKE,))[0]
    name = reader.info.names[0]
    assert list(reader.name_features(name.first, name.end)) == list(answer_relation.NAME_WEIGHTS)
    number = reader.info.numbers[0]
    features = reader.number_features(number.first, number.end, number.role)
    assert list(features) == list(answer_relation.NUMBER_WEIGHTS)


@pytest.mark.parametrize(
    ("question", "name", "place"),
    [
        ("In which country is the band based?", "France", 1.0),
        ("In which country is the band based?", "United States", 1.0),
        ("In which country is the band based?", "Nevada", 0.0),
        ("Which state is the band from?", "Nevada", 1.0),
        ("Which state is the band from?", "France", 0.0),
        ("Who founded the band?", "France", 0.0),
    ],
)
def test_a_country_or_state_name_is_of_the_kind_asked(
    question: str, name: str, place: float
) -> None:
    passage = f"The band was founded by Ann Lee in {name} in 1990."
    reader = answer_relation._readers(question, (passage,))[0]
    site = next(n for n in reader.info.names if reader.info.span_text(n.first, n.end) == name)
    assert reader.name_features(site.first, site.end)["place"] == place


@pytest.mark.parametrize(
    ("question", "passage"),
    [(THICKE_Q, THICKE), (OBEROI_Q, OBEROI), (JENKINS_Q, JENKINS), (SAVAGE_Q, SAVAGE)],
)
def test_the_lazily_fitted_name_table_finds_the_rival_of_fitting_every_name(
    question: str, passage: str
) -> None:
    table = answer_relation._NameTable(question, (passage,))
    reader = answer_relation._readers(question, (passage,))[0]
    info = reader.info
    asked = reader.asked.content
    entries = [
        (name, content)
        for name in info.names
        if not (content := info.content_stems(name.first, name.end)) <= asked
    ]
    fits = [reader.name_fit(name.first, name.end) for name, _ in entries]
    bounds = reader.name_bounds([info.sentence_of[name.first] for name, _ in entries])
    assert all(fit <= bound for fit, bound in zip(fits, bounds, strict=True))
    for index, (site, answer) in enumerate(entries):
        eligible = [
            (fit, i)
            for i, (fit, (other, content)) in enumerate(zip(fits, entries, strict=True))
            if not content & answer and not (other.first < site.end and site.first < other.end)
        ]
        found = [answer_relation.Found(0, site.first, site.end)]
        rival = table.rival(answer, found)
        if not eligible:
            assert rival is None
            continue
        best = max(eligible, key=lambda pair: pair[0])
        other, _ = entries[best[1]]
        assert rival == (best[0], answer_relation.Found(0, other.first, other.end))
        assert table.place_fit(found[0]) == fits[index]


@pytest.mark.parametrize(
    ("question", "passage", "name"),
    [(THICKE_Q, THICKE, "Alan"), (THICKE_Q, THICKE, "Thicke"), (JENKINS_Q, JENKINS, "Jenkins")],
)
def test_the_best_place_of_a_name_is_found_without_fitting_every_place(
    question: str, passage: str, name: str
) -> None:
    table = answer_relation._NameTable(question, (passage,))
    info = text.text_info(passage)
    places = [answer_relation.Found(0, i, i + 1) for i in info.positions[text.stem(name)]]
    assert len(places) > 1
    assert table.best_place_fit(places) == max(table.place_fit(place) for place in places)


def test_a_long_text_indexes_every_place_of_every_stem() -> None:
    """positions and holding list each stem's words and sentences in order, also past the
    shared one-position tuples (word 1,024 on) and for stems that stand a thousand times."""
    info = text.TextInfo(" ".join(f"The cat {i} sat on the mat {i % 7}." for i in range(600)))
    positions: dict[str, list[int]] = {}
    holding: dict[str, list[int]] = {}
    for index, (word_stem, sentence) in enumerate(zip(info.stems, info.sentence_of, strict=True)):
        positions.setdefault(word_stem, []).append(index)
        if holding.setdefault(word_stem, [])[-1:] != [sentence]:
            holding[word_stem].append(sentence)
    assert len(info.raw) > 4000
    assert info.positions == {stem: tuple(places) for stem, places in positions.items()}
    assert info.holding == {stem: tuple(places) for stem, places in holding.items()}
    assert list(info.positions) == list(positions)  # keys in the order the words come
    assert len(info.positions["the"]) == 1200
