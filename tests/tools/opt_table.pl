#!/usr/bin/perl
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Lists the options of one program's option table, read from its sources:
#
#   cat progs/getcap/*.c | perl tests/tools/opt_table.pl
#
# one a line: "--name" (no value), "--name=" (takes one) or "-x". The
# table is the "static const struct opt options[]" of common/opts.h (rows'
# .name, .letter and .arg, the OPTS_HELP_ROW and OPTS_VERSION_ROW rows), or
# capsh's "static const struct capsh_opt options[]" (each row's word).
# Exits 1 when there is no such table: the suite must not pass on nothing.
use strict;
use warnings;

local $/;
my $src = <STDIN>;
if ($src =~ /^static const struct capsh_opt options\[\] = \{\n(.*?)^\};/ms) {
	for (split /\n/, $1) {
		print "$1\n" if /^\s*\{ "(--?[A-Za-z][A-Za-z0-9-]*=?)"/;
	}
	exit 0;
}
$src =~ /^static const struct opt options\[\] = \{\n(.*?)^\};/ms or exit 1;
for my $row (split /^\t\{/m, $1) {
	my ($name, $letter);
	$name = $1 if $row =~ /\.name = "([^"]+)"/;
	$letter = $1 if $row =~ /\.letter = '(.)'/;
	if ($row =~ /OPTS_HELP_ROW\((?:"([^"]+)"|NULL), (?:'(.)'|0)\)/) {
		($name, $letter) = ($1, $2);
	}
	$name = "version" if $row =~ /OPTS_VERSION_ROW/;
	my $value = $row =~ /\.arg = required_argument/ ? "=" : "";
	print "--$name$value\n" if defined $name;
	print "-$letter\n" if defined $letter;
}
