"""Drivers and yes/no read from sentences (core.qa.passage_drivers, core.qa.planner.changes). Invented examples."""

from __future__ import annotations

from core.qa.passage_drivers import driver_quote, section, sentences, yes_no
from core.qa.planner.changes import asks_driver, topic, yes_no_asked
from core.retrieval.retriever import Evidence
from tests.factories import PAGE


def passage(n: int, text: str) -> Evidence:
    return Evidence(n=n, kind="passage", content=text, citations=[PAGE])


def test_driver_questions_and_their_topic() -> None:
    assert asks_driver("What drove the rise in freight costs in FY2023?")
    assert asks_driver("Why did inventories decrease?")
    assert not asks_driver("Why is the company exposed to currency risk?")  # a reason, but of no change
    assert topic("What drove the rise in freight costs in FY2023 for Brindle Foods? Explain.") == "freight costs"
    # a possessive name of several words, with its corporate suffix: the company's, not the line's
    assert topic("What drove the decrease in Brindle Foods, Inc.'s net sales in fiscal 2022?") == "net sales"
    assert topic("Why did Brindle Foods' inventories increase in FY2023?") == "inventories"


def test_the_driver_sentence_names_the_line_and_a_cause() -> None:
    text = (
        "Freight costs were discussed at length. Freight costs increased 12%, driven by higher diesel prices. "
        "Inventories increased 3% because of new stores."
    )
    quote = driver_quote("What drove the increase in freight costs?", [passage(1, text)])
    assert quote is not None and quote.text.startswith("Freight costs increased 12%, driven by")
    assert quote.span == "driven by higher diesel prices"


def test_a_reason_in_the_next_sentence_is_quoted_with_its_line() -> None:
    text = "Warranty expense rose to $41 million. This was primarily due to a recall of older heaters."
    quote = driver_quote("Why did warranty expense rise?", [passage(2, text)])
    assert quote is not None and quote.n == 2
    assert quote.text == text


def test_a_sentence_of_the_other_direction_is_no_driver_of_the_move_asked() -> None:
    """It is quoted only as the move the filing states instead (marked contrary: the answer says so)."""
    text = "Warranty expense decreased 5%, primarily due to fewer claims."
    quote = driver_quote("What drove the increase in warranty expense?", [passage(1, text)])
    assert quote is not None and quote.contrary


def test_a_yes_no_needs_both_figures_in_one_sentence() -> None:
    assert yes_no_asked("Did warranty expense increase in 2023?") is not None
    assert yes_no_asked("Why did warranty expense increase?") is None
    two = passage(1, "Operating margin fell to 8.1% in 2023 from 9.4% in 2022.")
    found = yes_no("Did operating margin improve in 2023?", [two])
    assert found is not None and found.word == "No" and not found.rose
    assert (found.current.text, found.prior.text) == ("8.1%", "9.4%")
    found = yes_no("Did operating margin increase or decrease?", [two])
    assert found is not None and found.word == "Decreased"
    # "from A to B": the later figure is the second
    found = yes_no(
        "Did selling expenses go up?", [passage(1, "Selling expenses went from $12 million to $15 million.")]
    )
    assert found is not None and found.word == "Yes" and found.current.text == "$15 million"
    # a lower cost improves; one figure alone answers nothing
    found = yes_no(
        "Are selling expenses improving?", [passage(1, "Selling expenses were $15 million compared with $12 million.")]
    )
    assert found is not None and found.word == "No"
    assert yes_no("Did selling expenses rise?", [passage(1, "Selling expenses were $15 million.")]) is None


def test_a_name_opening_with_a_digit_is_the_companys_and_the_line_that_moved_is_quoted_first() -> None:
    """ "7G's operating cash flow": 7G is the company. Of two sentences naming operating cash, the one saying it
    moved is quoted, not the one naming it among the reasons of another line's move."""
    assert topic("What drove the decrease in 7G's operating cash flow in 2022?") == "operating cash flow"
    text = (
        "Cash and equivalents decreased $0.9 billion, primarily because operating cash flow was offset by dividend "
        "payments and share repurchases. In 2022, cash flows provided by operating activities decreased $1.9 "
        "billion, primarily due to lower net income and higher tax payments."
    )
    quote = driver_quote("What drove the decrease in 7G's operating cash flow in 2022?", [passage(1, text)])
    assert quote is not None and quote.text.startswith("In 2022, cash flows provided by operating activities")


def test_the_line_that_moved_is_the_one_named_before_the_reason() -> None:
    """Of two sentences naming revenue, the one whose own move is stated is quoted: a line moving among another's
    reasons ("… due to lower forecasted revenue growth") is not the line's move."""
    text = (
        "In fiscal 2024, the fair value headroom shrank, primarily due to lower forecasted revenue growth and "
        "higher discount rates. The decrease in revenue in fiscal 2024 was primarily driven by fewer store visits "
        "across most categories."
    )
    quote = driver_quote("What drove Larkspur Outfitters' revenue decline in fiscal 2024?", [passage(1, text)])
    assert quote is not None and quote.text.startswith("The decrease in revenue in fiscal 2024")


def test_a_line_named_inside_another_lines_name_is_not_named() -> None:
    """ "Cost of sales, as a percent of sales, increased …" states no move of net sales; "comparable sales" is its
    own line, not revenue."""
    text = (
        "Cost of sales, measured as a percent of sales, increased in 2024 primarily due to freight costs. "
        "Net sales increased 4% in 2024, primarily driven by higher volumes of filters."
    )
    quote = driver_quote("What drove the increase in Pell Corp's net sales in 2024?", [passage(1, text)])
    assert quote is not None and quote.text.startswith("Net sales increased 4%")
    only = "Kitchen: the 5.5% comparable sales decline was driven primarily by small appliances."
    assert driver_quote("What drove Pell Corp's revenue decline in 2024?", [passage(1, only)]) is None


def test_an_expense_line_asked_with_its_noun_is_named_by_its_short_name() -> None:
    """ "SG&A expenses" asked, "SG&A was impacted by …" written: the noun adds no other quantity."""
    text = "SG&A was impacted by increased legal costs, primarily related to the settlement of a patent dispute."
    quote = driver_quote("What caused Pell Corp's SG&A expenses to increase in 2024?", [passage(1, text)])
    assert quote is not None and quote.text == text


def test_a_sentence_of_another_year_states_no_driver_of_the_year_asked() -> None:
    """A 10-K also discusses the prior year's change: a sentence naming only that year, or following one that
    does, is not the driver of the year asked; one naming the year asked is."""
    prior = (
        "Our segment's SG&A increased $27 million in fiscal 2023 compared to fiscal 2022. The increase in SG&A was "
        "primarily driven by the extra week."
    )
    question = "What drove Larkspur Outfitters' SG&A increase in fiscal 2024?"
    assert driver_quote(question, [passage(1, prior)]) is None
    assert driver_quote(question.replace("2024", "2023"), [passage(1, prior)]) is not None
    current = "SG&A increased in fiscal 2024, primarily due to higher incentive pay. The company was founded in 1966."
    quote = driver_quote(question, [passage(1, prior), passage(2, current)])
    assert quote is not None and quote.n == 2
    # a yes/no is read from a sentence of the year asked only
    figures = "SG&A decreased to $8.0 billion in fiscal 2023 from $8.6 billion in fiscal 2022."
    assert yes_no("Did Larkspur Outfitters' SG&A decrease in fiscal 2024?", [passage(1, figures)]) is None
    assert yes_no("Did Larkspur Outfitters' SG&A decrease in fiscal 2023?", [passage(1, figures)]) is not None


def test_a_sentence_not_stating_the_lines_move_is_no_driver() -> None:
    """A sentence naming the line among another line's reasons, or defining it, states no driver of its change:
    none is quoted (the caller abstains) rather than a sentence that only mentions it."""
    text = (
        "Net interest income increased 27 percent, primarily driven by higher revolving member loan balances. "
        "Member loans — Represents loans to members, primarily revolving balances."
    )
    assert driver_quote("What drove the increase in Corvid Bank's member loans in 2024?", [passage(1, text)]) is None
    moved = text + " Member loans increased 22 percent in 2024, driven by growth in billed business."
    quote = driver_quote("What drove the increase in Corvid Bank's member loans in 2024?", [passage(1, moved)])
    assert quote is not None and quote.text.startswith("Member loans increased 22 percent")


def test_the_companys_move_is_quoted_before_a_segments() -> None:
    """Asked of the company, a sentence of one segment's move comes after one of the whole company's; asked of the
    segment, the segment's."""
    text = (
        "Our Outdoor segment's net sales decreased 3% in 2024, primarily due to fewer tent orders. "
        "Net sales decreased 1% in 2024, primarily due to lower volumes in most categories."
    )
    quote = driver_quote("Why did Pell Corp's net sales decrease in 2024?", [passage(1, text)])
    assert quote is not None and quote.text.startswith("Net sales decreased 1%")
    quote = driver_quote("Why did the Outdoor segment's net sales decrease in 2024?", [passage(1, text)])
    assert quote is not None and quote.text.startswith("Our Outdoor segment's")


def test_a_lines_share_of_revenue_is_not_revenue_and_a_segment_in_the_reason_is_no_segments_move() -> None:
    """ "SG&A as a percentage of net sales decreased …" states no move of net sales (asked of SG&A's share, it does);
    a reason naming a segment ("lower volumes in the consumer segment") leaves the company's move the company's."""
    text = (
        "SG&A as a percentage of net sales decreased to 19.1% from 19.6%, driven by savings from restructuring. "
        "Net sales decreased $42 million, or 3.1%, primarily due to lower volumes in the consumer segment."
    )
    quote = driver_quote("What drove the decrease in Pell Corp's net sales in 2024?", [passage(1, text)])
    assert quote is not None and quote.text.startswith("Net sales decreased $42 million")
    quote = driver_quote("Why did Pell Corp's SG&A as a percentage of net sales decrease in 2024?", [passage(1, text)])
    assert quote is not None and quote.text.startswith("SG&A as a percentage of net sales")


def test_a_yes_no_on_a_move_stated_in_words_of_the_period_asked() -> None:
    """No sentence sets the two figures against each other, but one states the line's move in the quarter asked:
    the answer leads with the word and quotes it; a half-year's or another quarter's move answers nothing."""
    text = (
        "Our gross margin rate decreased in the first six months of fiscal 2027, primarily due to clearance. "
        "Our gross margin rate increased in the second quarter of fiscal 2027, primarily due to a richer mix. "
        "Our SG&A decreased in the second quarter of fiscal 2027, due to lower payroll."
    )
    found = yes_no(
        "Did Larkspur's gross margin rate increase in the second quarter of fiscal 2027?", [passage(3, text)]
    )
    assert found is not None and found.word == "Yes" and found.rose and found.current is None
    assert found.quote.text.startswith("Our gross margin rate increased in the second quarter")
    assert (
        yes_no("Did Larkspur's gross margin rate increase in the third quarter of fiscal 2027?", [passage(3, text)])
        is None
    )
    # a whole year asked: the quarter's and the half-year's moves are no answer
    assert yes_no("Did Larkspur's gross margin rate increase in fiscal 2027?", [passage(3, text)]) is None
    # the quarter named among other periods still states the quarter's move
    both = passage(
        4,
        "The decrease in revenue in the second quarter and first six months of fiscal 2027 was driven by lower traffic.",
    )
    found = yes_no("Did Larkspur's revenue decrease in the second quarter of fiscal 2027?", [both])
    assert found is not None and found.word == "Yes" and not found.rose
    # a segment's move is not the company's
    segment = "Our Outdoor segment gross margin rate increased in the second quarter of fiscal 2027, due to mix."
    assert (
        yes_no("Did Larkspur's gross margin rate increase in the second quarter of fiscal 2027?", [passage(3, segment)])
        is None
    )
    # no period asked: a move stated of some period says nothing
    assert yes_no("Did Larkspur's gross margin rate increase?", [passage(3, text)]) is None


def test_bullets_and_table_rows_end_sentences_and_a_deduction_names_no_line() -> None:
    """A bullet list's items, and prose after a table's row of figures, are sentences of their own; "(net of
    interest income)" is what another line is net of: it states no move of interest income or net income."""
    text = (
        "Pension income lowered expense year-on-year for 2026. • Interest expense (net of interest income) decreased in "
        "2027, driven by debt maturities. Hardware 7 % 7 % 2.5 % (5.8)% Total 100 % 100 % (5.4)% (4.2)% Net income "
        "decreased 9% in 2027, primarily due to litigation charges."
    )
    quote = driver_quote("What drove the decrease in Quillon's net income in 2027?", [passage(1, text)])
    assert quote is not None and quote.text == "Net income decreased 9% in 2027, primarily due to litigation charges."
    quote = driver_quote("Why did Quillon's interest expense decrease in 2027?", [passage(1, text)])
    assert quote is not None and quote.text.startswith("Interest expense (net of interest income) decreased")
    assert driver_quote("Why did Quillon's interest income decrease in 2027?", [passage(1, text)]) is None


def test_a_move_the_other_way_than_asked_is_quoted_as_such() -> None:
    """ "What drove the increase" of a line the filing says fell: the fall's sentence, marked contrary (the answer
    says the premise is not the filing's); a sentence of the direction asked is quoted as before."""
    fell = "Net sales decreased 4% in 2027, primarily due to lower volumes in Europe."
    quote = driver_quote("What drove the increase in Quillon's net sales in 2027?", [passage(1, fell)])
    assert quote is not None and quote.contrary and quote.text == fell
    both = f"{fell} Net sales increased 2% in the Americas segment, driven by pricing."
    quote = driver_quote("What drove the decrease in Quillon's net sales in 2027?", [passage(1, both)])
    assert quote is not None and not quote.contrary and quote.text == fell


def test_the_answers_words_for_a_contrary_move_and_a_move_stated_in_words() -> None:
    from core.qa.synth import synthesize_offline

    fell = passage(1, "Net sales decreased 4% in 2027, primarily due to lower volumes in Europe.")
    answer = synthesize_offline("What drove the increase in Quillon's net sales in 2027?", [fell])
    assert answer.text.startswith("Net sales fell, not rose. “Net sales decreased 4% in 2027, primarily due to")
    rose = passage(2, "Our gross margin rate increased in the second quarter of fiscal 2027, due to a richer mix.")
    answer = synthesize_offline(
        "Did Quillon's gross margin rate increase in the second quarter of fiscal 2027?", [rose]
    )
    assert answer.text.startswith("Yes, it increased, as the filing states: “Our gross margin rate increased in the")


def test_a_lines_rate_is_another_quantity_and_figures_compared_state_a_move() -> None:
    """ "SG&A" asked: a sentence on the SG&A rate (a share of revenue) states no move of SG&A; a line's two figures set
    against each other before the reason state its move as surely as a verb of change."""
    rate = "The decrease in SG&A rate was driven by sales leverage."
    assert driver_quote("Why did Quillon's SG&A decrease in fiscal 2027?", [passage(1, rate)]) is None
    quote = driver_quote("Why did Quillon's SG&A rate decrease in fiscal 2027?", [passage(1, rate)])
    assert quote is not None and quote.text == rate
    compared = (
        "Interest income in fiscal 2027 was $214 million as compared to $130 million in fiscal 2026 primarily due to "
        "higher rates earned on cash balances."
    )
    quote = driver_quote("Why did Quillon's interest income increase in fiscal 2027?", [passage(2, compared)])
    assert quote is not None and quote.text == compared
    # the comparison names another line before it: no move of the line asked
    other = "Interest expense was $90 million compared to $70 million, primarily due to higher interest income."
    assert driver_quote("Why did Quillon's interest income increase?", [passage(3, other)]) is None


def test_a_narrower_line_and_a_tables_lines_state_no_move_of_the_line_asked() -> None:
    """ "Revenue" asked: "the profit-share revenue decrease" is a part of revenue, and "… Comparable sales impact 0.3 %
    Total revenue decrease (0.3)%" is a table read into the text; the whole company's words ("enterprise revenue",
    "our revenue") and a segment's name (judged by the company-first rule) are the line."""
    narrower = "The fiscal 2027 profit-share revenue decrease reflects lower premiums paid to the underwriter."
    table_text = (
        "Non-comparable sales 1.8 % Comparable sales impact 0.3 % Currency impact (2.4)% Total revenue decrease "
        "(0.3)% reflects store closures."
    )
    for text in (narrower, table_text):
        assert driver_quote("What caused Quillon's revenue to decrease in fiscal 2027?", [passage(1, text)]) is None
    whole = "Enterprise revenue decreased 0.3% in fiscal 2027, primarily due to store closures."
    quote = driver_quote("What caused Quillon's revenue to decrease in fiscal 2027?", [passage(1, whole)])
    assert quote is not None and quote.text == whole
    # "segment" before the name is a part, left to the company-first rule: a part named by no name and under no
    # heading is not quoted for the company (which part it is, the answer could not say) …
    segment = "Business segment operating income margins decreased in 2027 due to litigation costs."
    assert driver_quote("What drove Quillon's operating margin change in 2027?", [passage(1, segment)]) is None
    # … under each business's heading, each is quoted, labelled with it
    headed = [
        passage(1, f"Safety and Tools Business (34% of consolidated sales):\n{segment}"),
        passage(2, f"Home Goods Business (21% of consolidated sales):\n{segment.replace('litigation', 'freight')}"),
    ]
    quote = driver_quote("What drove Quillon's operating margin change in 2027?", headed)
    assert quote is not None and quote.text == segment
    assert {quote.part, *(other.part for other in quote.others)} == {"Safety and Tools Business", "Home Goods Business"}
    ours = "Our revenue decreased in fiscal 2027, driven by lower traffic."
    assert driver_quote("Why did Quillon's revenue decrease in fiscal 2027?", [passage(1, ours)]) is not None
    # the part asked by name is read as before
    quote = driver_quote("Why did Quillon's profit-share revenue decrease in fiscal 2027?", [passage(1, narrower)])
    assert quote is not None and quote.text == narrower


def test_the_line_as_the_object_of_a_verb_of_change_moved() -> None:
    text = "Factors that decreased the Company's effective tax rate were primarily a lower statutory rate abroad."
    quote = driver_quote("Why did Quillon's effective tax rate change in 2027?", [passage(1, text)])
    assert quote is not None and quote.text == text
    # a narrower line as the object is not the line asked
    other = "Lower premiums decreased the profit-share revenue of the card program."
    assert driver_quote("Why did Quillon's revenue decrease?", [passage(1, other)]) is None


def test_a_period_phrase_is_no_topic_and_figures_between_name_and_move_keep_it_near() -> None:
    assert topic(
        "Why did Freight costs fall in the twelve months ended June 30, 2027 compared with the prior year?"
    ) == ("Freight costs")
    assert topic(
        "Why did freight costs for the six months ended March 31, 2027 rise compared with the prior year?"
    ) == ("freight costs")
    text = (
        "Freight costs (before fuel surcharges) for 2027 came to $640 million, a rise of $85 million on the prior "
        "year, driven by longer lanes."
    )
    quote = driver_quote("What caused the increase in Quillon's freight costs in 2027?", [passage(1, text)])
    assert quote is not None and quote.text == text


def test_a_plural_change_noun_opening_the_next_sentence_gives_the_reason() -> None:
    text = (
        "Cost of sales, measured as a percent of sales, increased in 2027 when compared to the same period last year. "
        "Increases were primarily due to higher freight and energy costs."
    )
    quote = driver_quote("Why did Quillon's cost of sales as a percent of sales increase in 2027?", [passage(1, text)])
    assert quote is not None and quote.text == text


def test_a_quantity_kept_against_the_line_and_an_other_line_state_no_move_of_it() -> None:
    """ "Member receivables reserve for credit losses increased": the reserve moved, not the receivables; "other
    income" is named only with its "other" (interest income is another line)."""
    reserve = (
        "Member receivables reserve for credit losses increased in 2027, primarily driven by higher delinquencies."
    )
    assert (
        driver_quote("What drove the increase in Quillon's member receivables in 2027?", [passage(1, reserve)]) is None
    )
    quote = driver_quote(
        "What drove the increase in Quillon's member receivables reserve in 2027?", [passage(1, reserve)]
    )
    assert quote is not None and quote.text == reserve
    interest = "Interest income increased in 2027, primarily due to higher rates earned on cash balances."
    assert driver_quote("What drove the change in Quillon's other income in 2027?", [passage(1, interest)]) is None
    other = "Other income increased in 2027, primarily due to gains on securities."
    assert driver_quote("What drove the change in Quillon's other income in 2027?", [passage(1, other)]) is not None


def test_a_sentence_under_a_segments_heading_is_that_segments() -> None:
    """A filing discusses each segment under its heading, in sentences naming no segment ("Our revenue decreased
    …"): asked of one segment, its own heading's sentence answers, never another's; asked of the company, a
    segment's sentence is a part's (the company's own first) and is labelled with its segment."""
    retail = "Retail Segment\n\nSelected data for the segment follows.\n"
    wholesale = "Wholesale Segment\n\nSelected data for the segment follows.\n"
    assert section(f"Consolidated Results\nNet sales rose.\n{retail}Tables") == "Retail Segment"
    assert section(f"{retail}Liquidity and Capital Resources\nCash rose.") == ""  # the company's again
    assert section("Our segments are Retail and Wholesale.") == ""  # a mention in prose is no heading
    ours = "Our gross margin rate decreased in fiscal 2027, primarily due to deeper markdowns on apparel."
    theirs = "Our gross margin rate decreased in fiscal 2027, primarily driven by higher freight costs in Ontario."
    passages = [
        Evidence(n=1, kind="passage", content=ours, citations=[PAGE], section="Retail Segment"),
        Evidence(n=2, kind="passage", content=theirs, citations=[PAGE], section="Wholesale Segment"),
    ]
    quote = driver_quote("Why did the Wholesale segment gross margin rate decrease in fiscal 2027?", passages)
    assert quote is not None and quote.n == 2 and quote.part == "Wholesale Segment"
    assert driver_quote("Why did the Outlet segment gross margin rate decrease in fiscal 2027?", passages) is None
    # the company's move, stated only per segment: each segment's sentence, labelled
    quote = driver_quote("Why did the gross margin rate decrease in fiscal 2027?", passages)
    assert quote is not None and {quote.part, *(o.part for o in quote.others)} == {
        "Retail Segment",
        "Wholesale Segment",
    }
    # a heading inside the passage, before the sentence, is the sentence's section
    inside = Evidence(n=3, kind="passage", content=f"{wholesale}{theirs}", citations=[PAGE])
    quote = driver_quote("Why did the Wholesale segment gross margin rate decrease in fiscal 2027?", [inside])
    assert quote is not None and quote.part == "Wholesale Segment"
    quote = driver_quote("Why did the Retail segment gross margin rate decrease in fiscal 2027?", [inside])
    assert quote is None


def test_a_segments_other_line_is_not_the_line_asked() -> None:
    """ "Home Comfort segment sales" asked: the segment's income as a percent of its sales names no sales move."""
    text = (
        "In 2027, the Home Comfort segment income before tax as a percent of sales was 19.6% versus 10.5% in 2026. "
        "The increase in the income before tax as a percent of sales was primarily driven by lower litigation costs."
    )
    assert driver_quote("Why did the Home Comfort segment sales change in 2027?", [passage(1, text)]) is None


def test_a_move_stated_with_its_parts_answers_why() -> None:
    """ "Sales were $15.0 billion, a decrease of 0.5%, which included 3.6% growth and a negative currency impact of
    4.1%": the move and what made it up, quoted."""
    text = (
        "Lighting segment sales in 2027 were $15.0 billion, a decrease of 0.5% from 2026, which included 3.6% "
        "operational growth and a negative currency impact of 4.1%."
    )
    quote = driver_quote("Why did the Lighting segment sales change in 2027?", [passage(1, text)])
    assert quote is not None and quote.text.startswith("Lighting segment sales in 2027")


def test_a_table_row_ending_its_line_ends_the_sentence_before_the_prose() -> None:
    text = (
        "Revenue $ 3,504 $ 3,931\nGross profit as a % of revenue 23.0 % 23.9 %\n\nThe decrease in revenue "
        "in fiscal 2027 was primarily driven by lower sales in Ontario.\nIt was a hard year."
    )
    said = sentences(text)
    assert "The decrease in revenue in fiscal 2027 was primarily driven by lower sales in Ontario." in said
    assert said[0] == "Revenue $ 3,504 $ 3,931"
    # a prose line ending on one figure goes on
    assert sentences("Revenue was $3.5 billion in fiscal 2027\nCompared to fiscal 2026 it fell.") == [
        "Revenue was $3.5 billion in fiscal 2027 Compared to fiscal 2026 it fell."
    ]


def test_the_factors_that_moved_a_line_are_its_driver() -> None:
    text = (
        "The effective tax rates for 2027 and 2026 were 9.6 percent and 17.8 percent. The primary factors that "
        "decreased the Company's effective tax rate for 2027 were the tax-free spin-off of the Filters business."
    )
    quote = driver_quote("Why did the effective tax rate change in 2027?", [passage(1, text)])
    assert quote is not None and quote.text.startswith("The primary factors that decreased")


def test_a_line_printed_with_its_counterpart_in_brackets_is_the_net_of_both() -> None:
    """ "Interest (income) expense … was net interest income of $214 million as compared to interest expense of $130
    million, primarily due to …" explains the net line: no driver of interest expense, one of interest income."""
    text = (
        "Interest (Income) Expense: Interest (income) expense in fiscal 2027 was net interest income of $214 million "
        "as compared to interest expense of $130 million in fiscal 2026, primarily due to higher rates earned on cash."
    )
    assert driver_quote("Why did interest expense increase in 2027?", [passage(1, text)]) is None
    assert driver_quote("Why did interest income increase in 2027?", [passage(1, text)]) is not None


def test_a_short_row_of_one_figure_ends_its_sentence() -> None:
    """A components table read into the text ("Comparable sales impact 0.2 %" over "Total revenue decrease (0.3)%")
    is the rows of the sentence opening it, never a sentence stating comparable sales' move."""
    text = (
        "The components of the revenue decrease were as follows:\nComparable sales impact 0.2 %\n"
        "Total revenue decrease (0.3)%\n(1) Non-comparable sales reflects the impact of store closures."
    )
    assert sentences(text)[0].endswith("Total revenue decrease (0.3)%")  # the list's rows, up to its total
    assert driver_quote("What drove the change in comparable sales?", [passage(1, text)]) is None
    assert driver_quote("What drove the change in comparable sales in fiscal 2027?", [passage(1, text)]) is None


def test_a_categorys_bullet_is_no_driver_of_the_companys_line() -> None:
    """ "Notable changes by category: • Services: The 11.6% comparable sales decline was primarily due to …" is the
    category's move, not the company's comparable sales; asked of the category, it answers."""
    text = (
        "Notable comparable sales changes by revenue category were as follows: • Services: The 11.6% comparable "
        "sales decline was primarily due to lower repair revenue. • Appliances: The 2.0% comparable sales increase "
        "was primarily due to new refrigerators."
    )
    assert driver_quote("What drove the change in comparable sales in fiscal 2027?", [passage(1, text)]) is None
    quote = driver_quote("What drove the decline in Services comparable sales in fiscal 2027?", [passage(1, text)])
    assert quote is not None and quote.text.startswith("Services: The 11.6%")


def test_a_segment_asked_by_its_name_alone_is_read_under_its_heading() -> None:
    """ "Harbor revenue" of a filing whose discussion has a "Harbor Segment" heading is that segment's revenue: the
    sentence under the heading that names no part answers, labelled; the other segment's does not. A part's line
    stated as "Our Harbor segment experienced a decrease in gross profit rate …", its reason in the next sentence
    ("This rate decrease was primarily driven by …"), answers the part's line."""
    harbor = passage(
        1, "Harbor Segment\nThe decrease in revenue in fiscal 2031 was primarily driven by lower sales in Ostland."
    )
    inland = passage(2, "Inland Segment\nThe increase in revenue in fiscal 2031 was primarily driven by new stores.")
    quote = driver_quote("Why did Quillon's Harbor revenue change in fiscal 2031?", [inland, harbor])
    assert quote is not None and quote.n == 1 and quote.part == "Harbor Segment" and not quote.others
    moved = "Our Harbor segment experienced a decrease in gross profit rate to 21.7% in fiscal 2031 from 22.5% in fiscal 2030."
    reason = "This rate decrease was primarily driven by higher supply chain costs."
    quote = driver_quote(
        "What drove the change in Quillon's Harbor segment gross profit rate in fiscal 2031?",
        [passage(1, f"{moved} {reason}")],
    )
    assert quote is not None and quote.text == f"{moved} {reason}"
    # a company named with an ampersand is the company's, not the line's
    assert topic("Why did Hale & Rowe's effective tax rate change in 2031?") == "effective tax rate"
    assert topic("What drove sales for Hale & Rowe in 2031?") == "sales"


def test_a_reason_naming_the_line_again_still_reads_the_move_before_it() -> None:
    """ "Our effective income tax rate for fiscal 2031 was 22.4%, compared to 45.0% in fiscal 2030. The decrease in
    the ETR was primarily due to … the lower statutory tax rate …": the second sentence names a tax rate among its
    reasons but states no move of its own; it is the reason of the move before it, quoted with it."""
    moved = (
        "Our effective income tax rate (“ETR”) for fiscal 2031 was 24.1%, compared to a rate of 38.6% in fiscal 2030."
    )
    reason = "The decrease in the ETR was primarily due to the lower statutory tax rate in the current year."
    quote = driver_quote(
        "Why did Quillon's effective tax rate change in fiscal 2031?", [passage(1, f"{moved} {reason}")]
    )
    assert quote is not None and quote.text == f"{moved} {reason}"


def test_a_reason_after_a_detail_of_the_line_is_the_lines_and_a_part_of_the_segment_is_not_the_segment() -> None:
    """Under a business's heading, "Sales in Harbor were down 2.7 percent. On an organic sales basis: • Sales increased
    in marine and decreased in rail. • Growth was held back by weaker demand.": the reason is of the segment's sales
    (the sentence between is a detail of the same line). After another line's move it is that line's reason. A part
    of the segment ("the energy-related businesses") is not the segment."""
    heading = "Harbor Business (22.8% of consolidated sales):\n"
    text = (
        "Sales in Harbor were down 2.7 percent in U.S. dollars. On an organic sales basis:\n• Sales increased in marine "
        "and decreased in rail.\n• Growth was held back by weaker demand for ferries."
    )
    quote = driver_quote("What drove the change in Quillon's Harbor sales in 2031?", [passage(1, heading + text)])
    assert quote is not None and quote.text.endswith("Growth was held back by weaker demand for ferries.")
    assert quote.part == "Harbor Business"
    other = "Revenue fell 3% in 2031. Operating income rose 5% in 2031. The increase was due to lower costs."
    assert driver_quote("What drove the change in Quillon's revenue in 2031?", [passage(1, other)]) is None
    sub = heading + "Sales increased 4 percent in the energy-related businesses, driven by electrical markets."
    assert driver_quote("What drove the change in Quillon's Harbor segment sales in 2031?", [passage(1, sub)]) is None
    # the reason naming the line without its segment is of the segment's move stated before it
    moved = "Our Harbor segment operating income was $64 million in fiscal 2031 compared to a loss of $143 million in fiscal 2030."
    reason = "The improvement in operating income was primarily driven by lower restructuring costs."
    quote = driver_quote(
        "What drove the change in Quillon's Harbor segment operating income in fiscal 2031?",
        [passage(1, f"{moved} {reason}")],
    )
    assert quote is not None and quote.text == f"{moved} {reason}"


def test_a_lines_small_words_stay_in_its_topic() -> None:
    """ "cost of sales", "provisions for credit losses", "income from operations": the small words inside a line's
    name are its own; beside the asking words they go ("the change in revenue")."""
    assert topic("Why did Quillon's cost of sales change in 2031?") == "cost of sales"
    assert (
        topic("What drove the increase in Quillon's provisions for credit losses in 2031?")
        == "provisions for credit losses"
    )
    assert topic("Why did the company's income from operations fall in fiscal 2031?") == "income from operations"
    assert topic("What drove the change in revenue in 2031?") == "revenue"
    text = "Cost of sales increased in 2031, primarily due to higher freight costs."
    quote = driver_quote("Why did Quillon's cost of sales change in 2031?", [passage(1, text)])
    assert quote is not None and quote.text == text


def test_the_components_of_a_change_listed_as_a_table_state_its_drivers() -> None:
    """ "The components of the 0.6% revenue decrease in the Harbor segment in fiscal 2031 were as follows:" and the
    rows under it ("Comparable sales impact 0.4 %", "Non-comparable sales (1) (0.7)%", up to its total) answer what
    drove the segment's revenue, quoted with the rows; another year's components do not."""
    text = (
        "Harbor Segment\nThe components of the 0.6% revenue decrease in the Harbor segment in fiscal 2031 were as "
        "follows:\nComparable sales impact 0.4 %\nNon-comparable sales (1) (0.7)%\nImpact of foreign currency "
        "exchange rate fluctuations (0.3)%\nTotal revenue decrease (0.6)%\nThe gross profit rate decreased to 21.6%."
    )
    quote = driver_quote(
        "What drove the change in Quillon's Harbor segment revenue in fiscal 2031?", [passage(1, text)]
    )
    assert quote is not None and quote.text.startswith("The components of the 0.6% revenue decrease")
    assert "Non-comparable sales (1) (0.7)%" in quote.text and "(0.3)%" in quote.text
    assert "gross profit" not in quote.text
    assert (
        driver_quote("What drove the change in Quillon's Harbor segment revenue in fiscal 2030?", [passage(1, text)])
        is None
    )


def test_what_moved_the_line_as_the_subject_of_its_verb_is_a_driver() -> None:
    """ "… recognized $0.3 billion of incremental tax costs, which increased the 2031 effective tax rate by 1.4%":
    the line is the object of the verb of change, what moved it its subject; no word of cause is needed. A narrower
    line as the object ("which increased the state tax rate") is not the line asked."""
    moved = "The fiscal year 2031 effective tax rate increased 6.4% as compared to the fiscal year 2030 rate."
    made = "The Company recognized $0.3 billion of incremental tax costs, which increased the 2031 effective tax rate by 1.4%."
    quote = driver_quote("Why did Quillon's effective tax rate change in 2031?", [passage(1, f"{moved} {made}")])
    assert quote is not None and quote.text == made
    narrower = "The Company recognized $0.3 billion of costs, which increased the Ostland sales tax rate by 1.4%."
    assert driver_quote("Why did Quillon's sales change in 2031?", [passage(1, narrower)]) is None


def test_a_part_named_by_its_own_words_is_no_answer_for_the_company_alone() -> None:
    """Asked of the company, a sentence whose line is named after a part's capitalised name ("Home Goods worldwide
    sales increased …") or after "Other" is that part's: the company's own sentence answers first; stated only per
    part, each part's sentence is quoted. A heading printed in capitals before a sentence is no word of it."""
    home = "Home Goods worldwide adjusted operational sales increased 5.2%, largely driven by kitchen products."
    garden = "Garden Tools worldwide adjusted operational sales grew 8.1%, driven primarily by mowers."
    whole = "Worldwide sales increased 4.1% in 2031, primarily driven by higher volumes."
    question = "What drove the change in Quillon's worldwide sales in 2031?"
    quote = driver_quote(question, [passage(1, home), passage(2, garden), passage(3, whole)])
    assert quote is not None and quote.text == whole and not quote.others
    quote = driver_quote(question, [passage(1, home), passage(2, garden)])
    assert quote is not None and {quote.text, *(o.text for o in quote.others)} == {home, garden}
    other = "Other provisions for credit losses increased, primarily due to a reserve build."
    total = "PROVISIONS FOR CREDIT LOSSES Provisions for credit losses increased, reflecting a reserve build of $455 million."
    quote = driver_quote(
        "What drove the increase in Quillon's provisions for credit losses in 2031?",
        [passage(1, other), passage(2, total)],
    )
    assert quote is not None and quote.n == 2 and quote.text.startswith("Provisions for credit losses increased")
    assert sentences("TOTAL REVENUES NET OF INTEREST EXPENSE Non-interest revenues increased.")[0].startswith(
        "Non-interest"
    )


def test_a_reason_after_a_restatement_of_the_same_metric_is_the_lines() -> None:
    """ "Harbor worldwide sales grew 2.8%. Excluding the vaccine, sales grew 4.0%. Growth was driven by …": the
    sentence between restates the same metric's move, so the reason is still the line's."""
    text = (
        "Harbor Harbor worldwide adjusted operational sales grew 2.8%. Excluding the vaccine, adjusted operational "
        "sales grew 4.0%. Growth was driven by new oncology products."
    )
    quote = driver_quote(
        "What drove the change in Quillon's Harbor sales in the second quarter of 2031?", [passage(1, text)]
    )
    assert quote is not None and quote.text.endswith("Growth was driven by new oncology products.")


def test_a_move_split_into_its_components_after_it_states_why() -> None:
    """ "Sales in Harbor totaled $4.1 billion, up 2.7 percent. Organic local-currency sales increased 2.2 percent, and
    currency translation increased sales by 0.5 percent.": the second sentence splits the move into its components,
    the answer's why; alone, or after another part's sentence, it states nothing."""
    moved = "Sales in Harbor totaled $4.1 billion, up 2.7 percent in U.S. dollars."
    split = (
        "Organic local-currency sales increased 2.2 percent, and currency translation increased sales by 0.5 percent."
    )
    heading = "Harbor Business (19% of consolidated sales):\n"
    question = "What drove the change in Quillon's Harbor segment sales in 2031?"
    quote = driver_quote(question, [passage(1, f"{heading}{moved} {split}")])
    assert quote is not None and quote.text == f"{moved} {split}"
    assert driver_quote(question, [passage(1, f"{heading}{split}")]) is None
    part = "Marine-related total sales increased 2.1 percent, or 3.2 percent on an organic local currency basis."
    assert driver_quote(question, [passage(1, f"{heading}{moved} {part}")]) is None
    # after a results label ("Year 2031 results: Sales …": the label's colon ends no modifier of "Sales"), and with
    # the organic basis's bullets after the components, quoted too
    labelled = f"Year 2031 results: {moved}"
    basis = "On an organic local-currency sales basis:\n• Sales grew in marine coatings and rail sealants."
    quote = driver_quote(question, [passage(1, f"{heading}{labelled} {split}\n{basis}")])
    assert quote is not None and quote.text.startswith(labelled)
    assert quote.text.endswith(
        "On an organic local-currency sales basis: • Sales grew in marine coatings and rail sealants."
    )


def test_a_list_cut_by_its_chunk_is_read_on_in_the_passage_after_it() -> None:
    """A chunk ending on "… were as follows:" and its first row: the rows up to the total are in the chunk after it on
    the same page (chunks overlap), quoted from there; a chunk of another page is no continuation."""
    lead = (
        "The components of the 3.0% revenue increase in fiscal 2031 were as follows:\nComparable sales impact 4.1 %\n"
    )
    first = passage(1, f"Revenue rose. {lead}")
    first = first.model_copy(update={"citations": [PAGE.model_copy(update={"start_char": 100, "end_char": 400})]})
    rest = f"{lead}Impact of currency (1.1)%\nTotal revenue increase 3.0 %\nOther text follows here."
    after = passage(2, rest).model_copy(
        update={"citations": [PAGE.model_copy(update={"start_char": 300, "end_char": 700})]}
    )
    question = "What drove the change in Quillon's revenue in fiscal 2031?"
    quote = driver_quote(question, [first, after])
    assert quote is not None and quote.n == 1 and quote.text.endswith("Comparable sales impact 4.1 %")
    assert [(m.n, m.text) for m in quote.more] == [(2, "Impact of currency (1.1)% Total revenue increase 3.0 %")]
    elsewhere = after.model_copy(update={"citations": [after.citations[0].model_copy(update={"page": 9})]})
    quote = driver_quote(question, [first, elsewhere])
    assert quote is not None and quote.more == ()


def test_another_residual_line_is_not_the_other_line_asked() -> None:
    """ "Other expense (income), net" asked: "Other corporate expense, net" is another line, though it shares the
    words; "other comprehensive income" is not "other income"."""
    text = "Other corporate expense, net, increased primarily due to a legal settlement in 2030."
    assert driver_quote("Why did Quillon's other expense (income), net change in 2031?", [passage(1, text)]) is None
    text = "Other comprehensive income decreased, primarily due to currency translation losses."
    assert driver_quote("Why did Quillon's other income decrease in 2031?", [passage(1, text)]) is None
    text = "Other expense (income), net decreased, primarily due to lower interest expense."
    assert driver_quote("Why did Quillon's other expense (income), net change in 2031?", [passage(1, text)])


def test_a_year_named_among_the_reasons_dates_no_move() -> None:
    """ "Operating income margins were 20.0 percent, down 2.0 points, driven by gains in 2030 not repeated in 2031":
    the move is stated of no period (a quarter's, a segment's); the year is the reason's."""
    reason_year = (
        "Operating income margins were 20.0 percent, down 2.0 percentage points, driven by divestiture gains "
        "in 2030 that were not repeated in 2031."
    )
    question = "Is Quillon's operating income margin improving in 2031?"
    assert yes_no(question, [passage(1, reason_year)]) is None
    dated = "Operating income margins decreased in 2031 versus 2030, driven primarily by a litigation charge."
    found = yes_no(question, [passage(1, dated)])
    assert found is not None and found.word == "No" and not found.rose


def test_a_part_named_by_title_is_not_read_under_another_parts_heading() -> None:
    """ "Harbor Care sales" asked (its heading among the passages, with no reason under it): the bullets under the
    Consumer heading that say "harbor care" are the Consumer segment's."""
    text = (
        "Consumer Business (15% of consolidated sales):\nYear 2031 results:\nSales in Consumer were down 3.0 percent.\n"
        "On an organic sales basis:\n• Sales increased in stationery and home care, were flat in harbor care, and "
        "decreased in home improvement.\n• Growth was impacted by softer retail demand as consumers pulled back.\n"
        "These impacts were partially offset by demand for painter tape."
    )
    heading = passage(2, "Harbor Care Business (20% of consolidated sales):\nSales (millions) $ 8,000 $ 8,100")
    asked = "What drove the change in Quillon's Harbor Care sales in 2031?"
    assert driver_quote(asked, [passage(1, text), heading]) is None
    quote = driver_quote("What drove the change in Quillon's Consumer sales in 2031?", [passage(1, text), heading])
    assert quote is not None and quote.part == "Consumer Business"


def test_a_segments_move_is_read_before_its_basis_bullets_and_a_regions_move_is_not_it() -> None:
    """Under the segment's heading: "Sales in Harbor and Rail were down 2.6 percent" (the name between the line and
    its move), then "On an organic sales basis: • Sales increased in marine, decreased in rail. • Growth was impacted
    by …": the bullets are the move's detail and its reason, quoted with it; "Total sales increased 6 percent in Latin
    America" is a region's move, no sentence of the segment's to quote them with."""
    heading = "Harbor and Rail Business (15% of consolidated sales):\n"
    moved = "Year 2031 results: Sales in Harbor and Rail were down 2.6 percent in U.S. dollars."
    basis = (
        "On an organic sales basis:\n• Sales increased in marine coatings, and decreased in rail sealants.\n"
        "• Growth was impacted by softer freight volumes as shippers cut their inventories."
    )
    question = "What drove the decline in Quillon's Harbor and Rail segment sales in 2031?"
    quote = driver_quote(question, [passage(1, f"{heading}{moved}\n{basis}")])
    assert quote is not None and not quote.contrary and quote.text.startswith(moved)
    assert quote.text.endswith("as shippers cut their inventories.")
    region = "Total sales increased 6 percent in Latin America."
    assert driver_quote(question, [passage(1, f"{heading}{region}\n{basis}")]) is None
    # a period after the figure is no part: "in FY31", "in H1 2031", "in Fiscal 2031"
    for period in ("FY31", "H1 2031", "Fiscal 2031"):
        dated = f"Revenue increased 5 percent in {period}, primarily due to new stores."
        assert driver_quote("What drove Quillon's revenue increase in 2031?", [passage(1, dated)]) is not None


def test_other_expenses_asked_alone_are_not_a_line_joined_with_them() -> None:
    """ "Other expenses" asked: "Salaries and other expenses increased …" is a line joined with another; "Service fees
    and other revenue" asked is that line itself."""
    joined = "Salaries and other expenses increased, primarily due to higher compensation costs."
    alone = "Other expenses increased, primarily driven by losses on venture investments."
    quote = driver_quote(
        "What drove the increase in Quillon's other expenses in 2031?", [passage(1, f"{joined} {alone}")]
    )
    assert quote is not None and quote.text == alone
    fees = "Service fees and other revenue increased 12 percent, primarily due to higher currency-related revenue."
    assert driver_quote("Why did Quillon's service fees and other revenue increase in 2031?", [passage(1, fees)])


def test_a_move_restated_without_currency_states_part_of_why() -> None:
    """ "SG&A decreased $41 million. Excluding the impact of foreign currency exchange rate fluctuations, the decrease
    in SG&A was $12 million.": the currency's part of the move, quoted with it; an excluding of no component is not."""
    moved = "Our Harbor segment's SG&A decreased $41 million, or 5.2%, in fiscal 2031 compared to the prior year."
    fx = "Excluding the impact of foreign currency exchange rate fluctuations, the decrease in SG&A was $12 million."
    question = "Why did Quillon's Harbor segment SG&A change in fiscal 2031?"
    quote = driver_quote(question, [passage(1, f"{moved} {fx}")])
    assert quote is not None and quote.text == f"{moved} {fx}"
    other = "Excluding the stores closed in the year, the decrease in SG&A was $12 million."
    assert driver_quote(question, [passage(1, f"{moved} {other}")]) is None
    # the company's SG&A asked: a segment's components are no answer for it
    assert driver_quote("Why did Quillon's SG&A change in fiscal 2031?", [passage(1, f"{moved} {fx}")]) is None
