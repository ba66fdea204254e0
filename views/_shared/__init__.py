"""What the pages share (the sidebar, the cached workbench, citation links, the sign-in form); not pages.

Every file directly in views/ is a page; helpers live here so that stays true.
"""
