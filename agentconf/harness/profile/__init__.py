"""Profiles (`agentconf.toml`): how one implementation's names, codes, answers and limits map
onto ours, with the messages a mistaken profile gets.
"""
