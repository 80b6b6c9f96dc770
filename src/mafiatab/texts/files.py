"""The words of the file readers' refusals (formats/: the tournament archive, a crosswalk of
ids, Polemica and mafiaratings records, a published points table), Russian first and
English second. A refusal carries the code and its parameters; a parameter that comes from
outside (a zip library's or a decoder's own message) is `detail`."""

from __future__ import annotations

from typing import Final

FILES: Final[dict[str, tuple[str, str]]] = {
    # --- a tournament archive (formats.archive, services.archive) ---
    "archive_not_zip": ("не zip-архив ({detail})", "not a zip archive ({detail})"),
    "archive_unexpected": ("лишние файлы в архиве: {names}",
                           "unexpected files in the archive: {names}"),
    "archive_no_manifest": ("в архиве нет manifest.json", "the archive has no manifest.json"),
    "archive_too_large": ("{name}: слишком большой ({size} байт)",
                          "{name}: too large ({size} bytes)"),
    "archive_manifest_unreadable": ("manifest.json не читается ({detail})",
                                    "manifest.json cannot be read ({detail})"),
    "archive_manifest_format": ("manifest.json: формат не {format}",
                                "manifest.json: not {format}"),
    "archive_manifest_files": ("manifest.json: список файлов не тот",
                               "manifest.json: the list of files is not the archive's"),
    "archive_member_missing": ("в архиве нет {name}", "the archive has no {name}"),
    "archive_member_damaged": ("{name}: повреждён ({detail})", "{name}: damaged ({detail})"),
    "archive_checksum": ("{name}: контрольная сумма не совпадает с manifest.json",
                         "{name}: the checksum does not match manifest.json"),
    "archive_inconsistent": ("содержимое архива не согласовано: {detail}",
                             "the archive's members do not agree: {detail}"),
    # --- a crosswalk of other systems' ids (formats.crosswalk) ---
    "crosswalk_not_object": ("crosswalk: ожидался объект систем",
                             "crosswalk: an object of systems was expected"),
    "crosswalk_system": ("crosswalk.{system}: ожидался объект «id -> id игрока»",
                         "crosswalk.{system}: an object of id -> player id was expected"),
    "crosswalk_player": ("crosswalk.{system}.{ext}: ожидался id игрока (текст)",
                         "crosswalk.{system}.{ext}: a player id (text) was expected"),
    # --- Polemica records (formats.polemica) ---
    "polemica_no_games": (
        "ожидалась игра Polemica (объект), их список или {{\"games\": [...]}}",
        "a Polemica game (an object), a list of them, or {{\"games\": [...]}} was expected"),
    # --- mafiaratings records (formats.mafiaratings) ---
    "mafiaratings_ten": ("в игре mafiaratings 10 игроков", "a mafiaratings game has 10 players"),
    "mafiaratings_role": ("место {seat}: неизвестная роль {role!r}",
                          "seat {seat}: unknown role {role!r}"),
    # --- a published points table (formats.points_csv) ---
    "points_encoding": ("файл не в UTF-8 и не в Windows-1251",
                        "the file is neither UTF-8 nor Windows-1251"),
    "points_no_nickname": ("в заголовке нет столбца с ником (игрок / ник / nickname)",
                           "the header has no nickname column (player / nickname)"),
    "points_no_points": ("в заголовке нет баллов (итого / основные / доп. / игры)",
                         "the header has no points (total / main / extra / games)"),
    "points_empty": ("пустой файл", "an empty file"),
    "points_refused": (
        "таблица не принята: значения не по нынешним шкалам или не читаются — {count} "
        "(--lenient оставит значения вне шкал как опубликованы, с пометкой)",
        "the table is refused: values off today's scales or unreadable: {count} "
        "(--lenient keeps off-scale values as published, marked)"),
}
