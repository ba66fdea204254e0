"""Question reading for statement grids: which line item(s) and periods a question names, and what arithmetic
it asks of them, as a `CellsStep` that core.retrieval.cellmath executes.

Financial statements and their notes are grids: line items down the first column ("Total sales", "Net debt"),
periods across ("2019", "2018"), header rows on top ("Years Ended September 30,"). A question such as "By what
percent did rent grow from 2015 to 2016?" names one line item and two periods.

Modules: `words` (every word list and pattern the reading uses), `grid` (the grid's header, periods and line
items), `turned` (a table with its periods down the rows, read turned), `reading` (the question read against
one grid: `CellReading`), `items` (rules of two line items, and of a section's lines), `periods` (rules of one
line across periods), `rules` (the registry `CELL_RULES` and `plan_cells`).

`plan_cells` reads the question against the grid and tries `CELL_RULES` in order. Each rule has the signature
`(CellReading) -> CellsStep | REFUSED | None`: a step when it applies and the grid answers it, REFUSED when it
applies but the grid does not (the planning stops with no step), None when it does not apply (the next is
tried). The order, and why it matters:

1. `two_items`: two line items of one period (a share, a ratio, a difference, their figures, total or
   average). First, because such a question also names each line alone ("A as a percentage of B" names A).
2. `section_lines`: the lines under a heading or above a total, or their count ("what are the components
   of X"): the heading is a line the later rules would read a figure of.
3. `no_line`: every later rule reads one line item across periods; with none named, or one whose figure does
   not answer (two lines compared, another line named whole, a kind of line, a reason), no step.
4. `threshold_periods`: which periods (or how many) passed a figure ("in which years was X above 40,000").
   Before `which_period` and `listed_periods`, whose words ("which year", "more") it shares.
5. `counted_periods`: "how many years …" without a figure to compare with: REFUSED (no cell's figure).
6. `listed_periods`: which periods a line or the table holds.
7. `which_period`: the period of the largest or smallest figure.
8. `percentage_change`, then 9. `change`: a relative change, or a difference; before `average` and `total`,
   since "the change in the average X" and "the change in total X" are changes.
10. `average`, then 11. `total`: over the periods asked ("the average total sales" is an average).
12. `span_total`: a quarter or half of a grid with the months across ("Q3 revenue"), the sum of its months;
    before `value`, which would give each month's figure.
13. `value`: the line's figure in each year (or month) asked; last, since every question naming one would match.
14. `named_value`: the figure in the columns named by words ("As reported", "1-3 years").
"""

from core.qa.planner.cells.grid import GridRow, line_items_down, periods_across
from core.qa.planner.cells.reading import asks_periods
from core.qa.planner.cells.rules import CELL_RULES, CellRule, plan_cells
from core.qa.planner.cells.turned import TurnedGrid, turned_grid
from core.qa.planner.cells.words import OPERATION_WORDS

__all__ = [
    "CELL_RULES",
    "OPERATION_WORDS",
    "CellRule",
    "GridRow",
    "TurnedGrid",
    "asks_periods",
    "line_items_down",
    "periods_across",
    "plan_cells",
    "turned_grid",
]
