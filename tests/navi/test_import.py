import subprocess
import sys


def test_import_toolkit_does_not_import_folium_or_networkx():
    code = ("import sys, toolkit, toolkit.navi; "
            "print('folium' in sys.modules, 'networkx' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]
