"""mafiatab: the tournament system for sports mafia (FIIM 2018 and FSM rules)."""

__version__ = "0.1.0"
