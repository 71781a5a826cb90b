#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tests of check-legacy's link check (tools/testing/locked-ioctl/legacy/links.py)
on symbol tables made up here: the lost generator of 2.6.34's dvbdev.c, a
wrapper defined twice, one that another module uses unexported."""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(HERE, "legacy"))

import links  # noqa: E402


def symbols(defined=(), undefined=(), exported=()):
    s = links.Symbols.__new__(links.Symbols)
    s.defined, s.undefined, s.exported = set(defined), set(undefined), set(exported)
    return s


MODULES = {"dvbdev.c": "dvb-core", "dvb_frontend.c": "dvb-core", "av7110_av.c": "dvb-ttpci"}


class LinksTest(unittest.TestCase):
    def problems(self, stock, ours, layer=()):
        return links.problems(stock, ours, MODULES.get, set(layer))

    def test_all_defined_and_exported(self):
        stock = {"dvbdev.c": symbols(["dvb_generic_ioctl"]),
                 "av7110_av.c": symbols(undefined=["dvb_generic_ioctl"])}
        ours = {"dvbdev.c": symbols(["dvb_generic_ioctl", "dvb_generic_unlocked_ioctl"],
                                    ["__lock_kernel_user"],
                                    ["dvb_generic_ioctl", "dvb_generic_unlocked_ioctl"]),
                "av7110_av.c": symbols(undefined=["dvb_generic_unlocked_ioctl"])}
        self.assertEqual(self.problems(stock, ours, ["__lock_kernel_user"]), [])

    def test_the_lost_generator(self):
        ours = {"dvbdev.c": symbols(["dvb_generic_ioctl"]),
                "dvb_frontend.c": symbols(undefined=["dvb_generic_unlocked_ioctl"])}
        self.assertEqual(self.problems({}, ours), [
            "dvb_frontend.c needs dvb_generic_unlocked_ioctl, which no converted file defines"])

    def test_defined_twice(self):
        ours = {"dvbdev.c": symbols(["w"]), "av7110_av.c": symbols(["w"]),
                "dvb_frontend.c": symbols(undefined=["w"])}
        self.assertEqual(self.problems({}, ours), [
            "dvb_frontend.c needs w, which av7110_av.c, dvbdev.c all define"])

    def test_not_exported_to_another_module(self):
        ours = {"dvbdev.c": symbols(["w"]), "av7110_av.c": symbols(undefined=["w"])}
        self.assertEqual(self.problems({}, ours), [
            "av7110_av.c (module dvb-ttpci) needs w from dvbdev.c (module dvb-core), which "
            "does not export it"])
        # the same module needs no export
        ours = {"dvbdev.c": symbols(["w"]), "dvb_frontend.c": symbols(undefined=["w"])}
        self.assertEqual(self.problems({}, ours), [])

    def test_what_the_stock_object_needed_is_not_asked(self):
        stock = {"dvb_frontend.c": symbols(undefined=["printk"])}
        ours = {"dvb_frontend.c": symbols(undefined=["printk"])}
        self.assertEqual(self.problems(stock, ours), [])

    def test_layer_exports_read_from_its_sources(self):
        names = links.layer_exports(REPO)
        self.assertIn("deprecated_ioctl", names)
        self.assertIn("__tracepoint_lock_kernel", names)


if __name__ == "__main__":
    unittest.main()
