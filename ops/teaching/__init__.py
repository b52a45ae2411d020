"""Teaching aids computed from the operators' definitions: index formulas with numbers, and quiz questions.

The operators own what they teach (each family's teaching.py); this package asks them and shapes the answers.
"""

from ..operators.lessons import Formula, Term
from .formulas import index_formula
from .quiz import QUIZ_LENGTH, Question, QuizSettings, quiz_questions

__all__ = ["Formula", "index_formula", "Question", "QUIZ_LENGTH", "QuizSettings", "quiz_questions", "Term"]
