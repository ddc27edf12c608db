"""People at the station: who they are, their PINs and roles (`staff`), the credential check
with its lockout (`staff.authenticate`, `pins`), who the journal says may act (`roster`), the
people table checked against the journal (`check`), and the audit row of every look at hidden
cards (`access`). Built on the journal (`station.journal`), which knows nothing of them.
"""
