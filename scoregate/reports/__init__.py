"""What people look at: tables for the terminal, Markdown and PNG charts.

:mod:`.terminal` (the consoles and safe rendering of user text), :mod:`.render` (a
score's breakdown, a job's iterations and audit trail), :mod:`.window` (a time window of
the record: RED share, iterations, exits, decisions; re-thresholding stored scores),
:mod:`.charts` (PNG charts, with the ``charts`` extra). The command line and the HTTP
server print or serve them; nothing here imports either. (A result's own Markdown
section is ``scoregate.schemas.markdown``: it reads only the result's fields.)
"""
