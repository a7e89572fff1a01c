"""What a check came to: the exceptions that end a check (each one outcome, n/a a type of its
own) and their classification into the event stream's outcomes.
"""
