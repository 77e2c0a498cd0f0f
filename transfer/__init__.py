"""Results in and out: the league workbook and CSV exports, the tournament file, paper sheet imports."""
