"""The words and patterns the product reads questions, cells and passages with: each concept written once.

One module per concept, all in the lowest layer (they import nothing from core but each other):
``numbers`` (numbers as written, number words, scales), ``periods`` (years, months, quarters),
``comparison`` (comparatives, superlatives, comparison phrases), ``stop`` (words that name nothing),
``words`` (folding and stemming), ``questions`` (question words and column synonyms of the table planner),
``finance`` (metrics and their wordings), and ``trivia`` (vocabulary only tables of sports and general
knowledge need: sports roles, game outcomes, nationalities with their IOC codes).  A reader that needs a
narrower or wider list derives it from these (union, filter) rather than typing the words again.
"""
