"""The search tier (issue 12 item 5): the utility AI's best options weighed by one exchange of look-ahead over
the rules' own odds (`model`: our attack, the enemy's best replies, our next shot) in `controller.SearchAI`."""

from skirmish.ai.search.controller import WIDTH, Candidate, SearchAI, make_search, throws
from skirmish.ai.search.model import Exchange, Replies, Weights, exchange, material, next_shot, presence

__all__ = ["WIDTH", "Candidate", "Exchange", "Replies", "SearchAI", "Weights", "exchange", "make_search",
           "material", "next_shot", "presence", "throws"]
