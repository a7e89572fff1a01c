"""`agentconf run` and a peers folder: the suites in a pytest subprocess, the event stream in,
the reports out.
"""
