"""The words of the protocol's codes, Russian first (glossary.md): roles, their letters,
the first killed's tags and versions, penalties, the colours of a protocol entry, the
kinds of a stage and of a vote. They live beside the codes, in the pure core, so that its
problems name the choices in words («К (мирный)», «ППК»), never as codes; the catalogue
(`mafiatab.texts`) lists them as its sections."""

from __future__ import annotations

ROLE: dict[str, tuple[str, str]] = {
    "red": ("мирный («красный»)", "civilian (red)"),
    "sheriff": ("шериф", "sheriff"),
    "black": ("мафия («чёрный»)", "mafia (black)"),
    "don": ("дон", "don"),
}
#: the protocol's letter of a role
ROLE_LETTER: dict[str, tuple[str, str]] = {
    "red": ("К", "R"),
    "sheriff": ("Ш", "S"),
    "black": ("Ч", "B"),
    "don": ("Д", "D"),
}
#: the first killed's protocol (FSM 8.3.9): tags of an entry, and the versions
TAG: dict[str, tuple[str, str]] = {
    "reliable": ("достоверный цвет", "reliable"),
    "near_reliable": ("околодостоверный цвет", "near-reliable"),
    "from_version": ("следует из версии", "follows from the version"),
    "checked": ("проверен шерифом", "checked by the sheriff himself"),
    "aside": ("«в стороне» от версий", "aside from the versions"),
}
VERSION: dict[str, tuple[str, str]] = {
    "sheriff_don": ("Шериф / Дон", "sheriff / don"),
    "sheriff_don_vs_red": ("Шериф, Дон / красный", "sheriff, don / red"),
    "red_vs_red": ("красный / красный", "red / red"),
    "black_vs_black": ("чёрный / чёрный", "black / black"),
    "second_claim_after_leaving": ("второе вскрытие после ухода ПУ",
                                   "second claim after he left"),
    "single_claim": ("одно вскрытие", "a single claim"),
    "sheriff_hides": ("Шериф скрывает информацию", "the sheriff hides information"),
    "unreliable_sheriff_info": ("недостоверная информация Шерифа",
                                "unreliable sheriff's information"),
}
PENALTY: dict[str, tuple[str, str]] = {
    "disqualification": ("дисквалификация", "disqualification"),
    "team_loss": ("присуждение поражения команде (ППК)", "team loss awarded"),
    "game_action": ("негативное игровое действие", "negative game action"),
    "revealed_sheriff_no_will": ("вскрыл шерифа, не оставив завещания и протокола",
                                 "revealed the sheriff, left no will or protocol"),
}
#: the colour a first killed writes beside a seat
COLOUR: dict[str, tuple[str, str]] = {"red": ("красный", "red"), "black": ("чёрный", "black")}
STAGE_KIND: dict[str, tuple[str, str]] = {
    "qualification": ("отбор", "qualification"), "semifinal": ("полуфинал", "semifinal"),
    "final": ("финал", "final"),
}
VOTE_KIND: dict[str, tuple[str, str]] = {
    "vote": ("голосование", "vote"), "revote": ("переголосование", "revote"),
    "lift": ("голосование за подъём", "lift vote"),
}
#: the judge's next step, in parts (`NextStep.line` puts them together; the live screen
#: shows the same line)
STEP: dict[str, tuple[str, str]] = {
    "ended": ("игра окончена", "the game is over"),
    "agreement": ("договорка", "the agreement"),
    "shot": ("стрельба", "the black team shoots"),
    "don_check": ("проверка дона", "the don's check"),
    "sheriff_check": ("проверка шерифа", "the sheriff's check"),
    "best_move": ("лучший ход места {seat}", "the best move of seat {seat}"),
    "morning_speaks": ("утром говорит место {seat}", "in the morning seat {seat} speaks"),
    "speaks": ("говорит место {seat}", "seat {seat} speaks"),
    "last_words": ("последнее слово места {seat}", "last words of seat {seat}"),
    "vote": ("голосование: {seats}", "vote on {seats}"),
    "defence": ("оправдательная речь места {seat} (30 с)",
                "seat {seat} speaks before the repeated vote (30 s)"),
    "revote": ("переголосование: {seats}", "repeated vote on {seats}"),
    "lift": ("голосование за подъём: {seats}", "vote on lifting {seats}"),
    "night": ("ночь наступает", "night falls"),
    # a step's own word when it has no seat or candidates to name
    "vote_plain": ("голосование", "the vote"),
    "revote_plain": ("переголосование", "the repeated vote"),
    "lift_plain": ("голосование за подъём", "the vote on lifting"),
    "morning": ("утро", "the morning"),
    "speeches": ("речи", "the speeches"),
}
