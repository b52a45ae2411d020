"""Teaching aids computed from the operators' definitions: index formulas with numbers, and quiz questions."""

from .formulas import CHANNEL_FORMULA, Formula, Term, index_formula
from .quiz import QUIZ_LENGTH, Question, QuizSettings, quiz_questions

__all__ = ["CHANNEL_FORMULA", "Formula", "index_formula", "Question", "QUIZ_LENGTH", "QuizSettings", "quiz_questions",
           "Term"]
