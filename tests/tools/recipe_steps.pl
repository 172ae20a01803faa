#!/usr/bin/perl
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# Follows one recipe of docs/hacking.md ("## Adding things") in a scratch
# tree, as literally as a machine can, for tests/tools/recipes.sh:
#
#   perl recipe_steps.pl apply RECIPE TREE CHECK_SH STATE
#   perl recipe_steps.pl stale RECIPE TREE STATE
#
# RECIPE is capability, option, json or suite (the sections "### A
# capability", "### An option", "### A JSON field", "### A suite").
#
# apply reads the recipe from TREE's own docs/hacking.md: its numbered
# steps, the files each names (the paths in `...`, with <program> and
# <aspect> read as the trial's program and aspect), the text blocks it
# gives (a row, a rule) and its last step's sh block, the check. The
# trial's edits are this script's own (a made-up capability, option, JSON
# key or suite, below), but each is made only when a step names the file
# it edits: a recipe that leaves out a file leaves it untouched here, and
# the check or the staleness test then fails. So that the recipe and this
# script cannot drift apart in silence, a "DRIFT:" line (recipes.sh fails
# the recipe on it) names an edit here whose file no step names, and a
# page the capability recipe lists that has no statement left to change.
# A file the recipe names only for reference is listed ("named, nothing
# to do here"). The check is written to CHECK_SH, with the same
# placeholders filled in; what stale needs is kept in STATE.
#
# stale looks for what the recipe should have changed and did not, in
# the whole tree (the recipe's own check may not look there): for a
# capability, every statement of the old count or last capability that
# is not a fact about something else (the running kernel, libcap 2.66 or
# 2.76, which name 0 to 40 for ever); for an option, the option missing
# from a place that lists them. Prints one line per stale statement and
# exits 1 if there is any. The suites the runner always adds (a check the
# recipe cannot leave out) are named by recipes.sh.
use strict;
use warnings;

my ($cmd, $recipe, $tree, @rest) = @ARGV;
die "usage: $0 apply|stale RECIPE TREE ...\n" unless defined $tree;

my %TITLE = (capability => 'A capability', option => 'An option',
	     json => 'A JSON field', suite => 'A suite');
die "recipe_steps: no recipe '$recipe'\n" unless $TITLE{$recipe};

sub slurp {
	my ($f) = @_;
	open(my $fh, '<', $f) or die "recipe_steps: cannot read $f: $!\n";
	local $/;
	my $s = <$fh>;
	close $fh;
	return $s;
}

sub spew {
	my ($f, $s) = @_;
	open(my $fh, '>', $f) or die "recipe_steps: cannot write $f: $!\n";
	print $fh $s;
	close $fh or die "recipe_steps: cannot write $f: $!\n";
}

# The trial's made-up things, the same in every run.
my %PLACE = (
	capability => {},
	option => { '<program>' => 'getcap' },
	json => { '<program>' => 'capsh' },
	suite => { '<program>' => 'capsh', '<aspect>' => 'recipe_trial' },
);

# ---------------------------------------------------------------------
# The recipe, from the guide: its steps, each with its text, the paths it
# names and its fenced blocks.
sub read_recipe {
	my ($guide) = @_;
	my $text = slurp($guide);
	$text =~ /^## Adding things\n(.*?)(?=^## |\z)/ms
		or die "recipe_steps: $guide has no \"## Adding things\"\n";
	my $section = $1;
	my $title = $TITLE{$recipe};
	$section =~ /^### \Q$title\E\n(.*?)(?=^### |\z)/ms
		or die "recipe_steps: $guide has no \"### $title\" under \"## Adding things\"\n";
	my $body = $1;
	my (@steps, $cur, $fence);
	for my $line (split /\n/, $body) {
		if (!defined $fence && $line =~ /^(\d+)\. (.*)/) {
			$cur = { n => $1, text => "$2\n", blocks => [] };
			push @steps, $cur;
			next;
		}
		next unless $cur;
		if (!defined $fence && $line =~ /^\s*```(\w+)\s*$/) {
			$fence = { lang => $1, text => '' };
			next;
		}
		if (defined $fence && $line =~ /^\s*```\s*$/) {
			push @{$cur->{blocks}}, $fence;
			undef $fence;
			next;
		}
		if (defined $fence) {
			(my $l = $line) =~ s/^ {3}//;
			$fence->{text} .= "$l\n";
			next;
		}
		# A paragraph that is not indented ends the list.
		if ($line =~ /^\S/) { undef $cur; next; }
		$cur->{text} .= "$line\n";
	}
	die "recipe_steps: \"### $title\" has no numbered steps\n" unless @steps;
	for my $s (@steps) {
		my %paths;
		while ($s->{text} =~ /`([^`]+)`/g) {
			for my $w (split ' ', $1) {
				$paths{place($w)} = 1 if $w =~ m{^[\w.<>-]+/[\w./<>-]*$};
			}
		}
		$s->{paths} = \%paths;
	}
	return @steps;
}

sub place {
	my ($s) = @_;
	my $p = $PLACE{$recipe};
	$s =~ s/\Q$_\E/$p->{$_}/g for keys %$p;
	return $s;
}

# The step naming PATH, or undef.
sub step_naming {
	my ($steps, $path) = @_;
	for my $s (@$steps) {
		return $s if $s->{paths}{$path};
	}
	return undef;
}

# An edit made only if a step names its file: act(PATH, WHAT, FN) runs
# FN(step) and logs it in DONE, or logs that no step names PATH.
sub actor {
	my ($steps, $done) = @_;
	return sub {
		my ($path, $what, $fn) = @_;
		my $step = step_naming($steps, $path);
		if (!$step) {
			push @$done, "DRIFT: no step names $path, which the trial edits: $what";
			return;
		}
		$fn->($step);
		push @$done, "step $step->{n}: $path: $what";
	};
}

# ---------------------------------------------------------------------
# Edits. Each dies with a reason when the tree no longer looks as it
# expects (then the runner needs teaching, and says so).
sub edit_file {
	my ($path, $fn) = @_;
	my $f = "$tree/$path";
	my $old = slurp($f);
	my $new = $fn->($old);
	die "recipe_steps: $path: the edit changed nothing\n" if $new eq $old;
	spew($f, $new);
}

sub insert_before {
	my ($path, $anchor, $text) = @_;
	edit_file($path, sub {
		my ($s) = @_;
		$s =~ s/^(?=\Q$anchor\E)/$text/m
			or die "recipe_steps: $path: no line starting \"$anchor\" to insert before\n";
		return $s;
	});
}

sub insert_after {
	my ($path, $anchor, $text) = @_;
	edit_file($path, sub {
		my ($s) = @_;
		$s =~ s/^(\Q$anchor\E[^\n]*\n)/$1$text/m
			or die "recipe_steps: $path: no line starting \"$anchor\" to insert after\n";
		return $s;
	});
}

# The text block of STEP whose first line matches RE, placeholders filled.
sub block_of {
	my ($step, $re, $fill) = @_;
	for my $b (@{$step->{blocks}}) {
		next unless $b->{text} =~ $re;
		my $t = $b->{text};
		$t =~ s/\Q$_\E/$fill->{$_}/g for keys %$fill;
		return $t;
	}
	die "recipe_steps: step $step->{n} gives no block matching $re\n";
}

# --- a capability ----------------------------------------------------
# The table as it was: its count, last name and newest kernel version.
sub caps_table {
	my @t;
	for (split /\n/, slurp("$tree/private/caps.def")) {
		push @t, [$1, $2, $3] if /^CAP_FACT\((\d+),\s*\w+,\s*(\w+),\s*"([\d.]+)"/;
	}
	die "recipe_steps: no CAP_FACT entries in private/caps.def\n" unless @t;
	return @t;
}

sub vercmp {
	my @a = split /\./, $_[0];
	my @b = split /\./, $_[1];
	while (@a || @b) {
		my $c = (shift(@a) // 0) <=> (shift(@b) // 0);
		return $c if $c;
	}
	return 0;
}

sub capability_state {
	my @t = caps_table();
	my ($newest) = sort { vercmp($b, $a) } map { $_->[2] } @t;
	my $n = scalar @t;
	# Letters and '_' only, as every name: the parsers end a name at
	# anything else, a digit included.
	return { count => $n, last => $t[-1][1], newest => $newest,
		 name => 'recipe_trial', NAME => 'RECIPE_TRIAL', version => '99.0' };
}

# The statements of a page or guide, brought to one more capability: the
# forms tests/cli/docs_cap_names.sh checks, each number or name replaced
# as a reader following the recipe would.
sub advance {
	my ($st, $s) = @_;
	my ($n, $l) = ($st->{count}, $st->{count} - 1);
	my $sp = qr/(?:\s+|\s*\n\.[A-Z]+\s+)/;
	my $new_n = $n + 1;
	# The newest kernel's count first: "0 to 40" below makes a "41".
	$s =~ s/(?<!to )\b$n(${sp}on${sp}Linux$sp)\Q$st->{newest}\E(${sp}and)/$new_n$1$st->{version}$2/g;
	$s =~ s/(${sp}on${sp}Linux$sp)\Q$st->{newest}\E(${sp}and)/$1$st->{version}$2/g;
	$s =~ s/\b$n(\s+(?:names|known values))\b/$new_n$1/g;
	$s =~ s/\b(\d+)(${sp}to$sp)$l\b(?!\.)/$1$2$n/g;
	$s =~ s/\b$n(${sp}to${sp}63)\b(?!\s+on\s)/$new_n$1/g;
	$s =~ s/\babove(${sp})$l\b/above$1$n/g;
	$s =~ s/\b(to$sp(?:\.BR?\s+)?cap_)\Q$st->{last}\E\b/$1$st->{name}/g;
	return $s;
}

sub apply_capability {
	my ($steps, $st) = @_;
	my @done;
	my $act = actor($steps, \@done);
	$act->('private/caps.def', "appended CAP_FACT($st->{count}, $st->{NAME}, $st->{name})", sub {
		edit_file('private/caps.def', sub {
			return $_[0] . <<"DEF";

CAP_FACT($st->{count}, $st->{NAME}, $st->{name}, "$st->{version}", LOW,
	"a capability made up by tests/tools/recipes.sh",
	"A capability no kernel has, added by the recipe runner\\n"
	"to follow the guide's steps for a new one.\\n",
	/* In Linux since $st->{version} */
	".")
DEF
		});
	});
	$act->('include/sys/capability.h', "#define CAP_$st->{NAME} $st->{count}", sub {
		my ($last, $l) = (uc $st->{last}, $st->{count} - 1);
		edit_file('include/sys/capability.h', sub {
			my ($s) = @_;
			$s =~ s/^(#define CAP_\Q$last\E\s+$l\n#endif\n)/$1#ifndef CAP_$st->{NAME}\n#define CAP_$st->{NAME}\t\t$st->{count}\n#endif\n/m
				or die "recipe_steps: include/sys/capability.h: no CAP_$last define followed by #endif\n";
			return $s;
		});
	});
	# Every page or guide a step names: its statements brought up to date.
	my %seen;
	for my $s (@$steps) {
		for my $path (sort keys %{$s->{paths}}) {
			next unless $path =~ m{^(man/man\d/[\w.-]+\.\d|(docs/)?[\w-]+\.md)$};
			next if $path eq 'docs/differences.md' || $seen{$path}++;
			next unless -f "$tree/$path";
			my $old = slurp("$tree/$path");
			my $new = advance($st, $old);
			if ($new eq $old) {
				push @done, "DRIFT: step $s->{n} names $path, which holds no statement to bring up to date";
				next;
			}
			spew("$tree/$path", $new);
			push @done, "step $s->{n}: $path: statements of the count and last name brought up to date";
		}
	}
	my %fill = ('<name>' => $st->{name}, '<number>' => $st->{count},
		    '<version>' => $st->{version});
	$act->('docs/differences.md', "a row for cap_$st->{name}, from the recipe's block", sub {
		my ($step) = @_;
		my $row = block_of($step, qr/^\|/, \%fill);
		$step->{text} =~ /"([^"]+)"/
			or die "recipe_steps: step $step->{n} does not quote the table's heading\n";
		my $heading = $1;
		edit_file('docs/differences.md', sub {
			my ($s) = @_;
			$s =~ s/(^### \Q$heading\E\n(?:(?!^#).*\n)*?(?:^\|.*\n)+)/$1$row/m
				or die "recipe_steps: docs/differences.md has no table under \"### $heading\"\n";
			return $s;
		});
	});
	$act->('tests/tools/upstream.rules', "the row's rule, from the recipe's block", sub {
		my ($step) = @_;
		my $rule = block_of($step, qr/^\S+\s+(?:ours|ref|case)\s/, \%fill);
		edit_file('tests/tools/upstream.rules', sub { return $_[0] . $rule; });
	});
	return @done;
}

# The old maximum, wherever it is stated. A line that states a fact which
# does not move with private/caps.def is not stale: it names the kernel it
# is about, libcap's versions (which name 0 to 40 for ever), or is a test
# of what a kernel without the newest capabilities does.
sub stale_capability {
	my ($st) = @_;
	my ($n, $l, $last) = ($st->{count}, $st->{count} - 1, $st->{last});
	my @forms = (
		qr/\b0 ?(?:to|\.\.|-) ?$l\b/, qr/\b$n (?:names|known|capabilities)\b/,
		qr/\b$n to 63\b/, qr/\babove $l\b/, qr/\bbeyond $l\b/,
		qr/(?:<=|<) ?CAP_\U$last\E\b/, qr/CAP_\U$last\E ?\+ ?1\b/,
		qr/\bto (?:\.BR? )?cap_$last\b/, qr/-le $l\b/, qr/-lt $n\b/,
	);
	# Said on the line or the two before it (a sentence wraps).
	my $fact = qr/\b(?:Linux \d|on \d+\.\d|kernel|cap_last_cap|2\.66|2\.7[568]|libcap's|upstream|reference)/i;
	# docs_cap_names.sh quotes each form it checks, as an example.
	my %skip = map { $_ => 1 } qw(private/caps.def tests/cli/docs_cap_names.sh);
	my @files = split /\0/, `git -C '$tree' ls-files -z`;
	my @stale;
	for my $f (@files) {
		next if $f =~ m{^tests/fuzz/corpus/} || $skip{$f};
		next unless -f "$tree/$f" && -T "$tree/$f";
		my @lines = split /\n/, slurp("$tree/$f");
		for my $i (0 .. $#lines) {
			next unless grep { $lines[$i] =~ $_ } @forms;
			my $from = $i >= 2 ? $i - 2 : 0;
			next if join("\n", @lines[$from .. $i]) =~ $fact;
			push @stale, "$f:" . ($i + 1) . ": $lines[$i]";
		}
	}
	return @stale;
}

# --- an option ---------------------------------------------------------
my $OPT = 'recipe-trial';
(my $OPT_MEMBER = $OPT) =~ tr/-/_/;

sub struct_opts_file {
	my ($prog) = @_;
	for my $f (glob("$tree/progs/$prog/*.h"), glob("$tree/progs/$prog/*.c")) {
		(my $rel = $f) =~ s{^\Q$tree\E/}{};
		return $rel if slurp($f) =~ /^struct opts \{/m;
	}
	die "recipe_steps: no struct opts in progs/$prog\n";
}

# The int the option sets, last in the program's struct opts.
sub add_member {
	my ($file) = @_;
	edit_file($file, sub {
		my ($s) = @_;
		$s =~ s/^(struct opts \{\n(?:.*\n)*?)(\};)/$1\tint $OPT_MEMBER; \/* --$OPT (ours): the recipe runner's *\/\n$2/m;
		return $s;
	});
}

sub apply_option {
	my ($steps) = @_;
	my $prog = $PLACE{option}{'<program>'};
	my @done;
	my $act = actor($steps, \@done);
	# A program with a table of struct opt rows: the row, and the member
	# it sets.
	$act->("progs/$prog/$prog.c", "a row for --$OPT before --version's", sub {
		insert_before("progs/$prog/$prog.c", "\t{ OPTS_VERSION_ROW",
			"\t{ .name = \"$OPT\",\n\t  .help = \"accepted and ignored: the recipe runner's (not in libcap)\",\n" .
			"\t  .flag = OPTS_FLAG(struct opts, $OPT_MEMBER) },\n");
	});
	my $sf = struct_opts_file($prog);
	$act->($sf, "the member --$OPT sets", sub { add_member($sf) });
	# capsh, whose table is its own.
	$act->('progs/capsh/capsh.c', "a handler and a row for --$OPT after --json's", sub {
		insert_before('progs/capsh/capsh.c', "HANDLER(run_version,",
			"HANDLER(run_recipe_trial, set_flag(&o->$OPT_MEMBER, 1))\n");
		insert_before('progs/capsh/capsh.c', "\t{ \"--version\", W, 1, run_version,",
			"\t{ \"--$OPT\", W, 0, run_recipe_trial,\n\t  \"  --$OPT accepted and ignored (not in libcap)\",\n\t  1 },\n");
	});
	$sf = struct_opts_file('capsh');
	$act->($sf, "the member capsh's --$OPT sets", sub { add_member($sf) });
	# The man pages: an item at the top of OPTIONS.
	for my $page ("man/man8/$prog.8", 'man/man1/capsh.1') {
		$act->($page, "--$OPT under OPTIONS", sub {
			edit_file($page, sub {
				my ($s) = @_;
				$s =~ s/^(\.SH OPTIONS\n(?:\.SS [^\n]*\n)?)/$1.TP\n.B \\-\\-recipe\\-trial\nAccepted and ignored: an option the recipe runner adds (not in libcap).\n/m
					or die "recipe_steps: $page has no OPTIONS section\n";
				return $s;
			});
		});
	}
	# The rows of docs/differences.md that list the programs' options.
	$act->('docs/differences.md', "--$OPT in the rows $prog-options and capsh-options", sub {
		edit_file('docs/differences.md', sub {
			my ($s) = @_;
			for my $row ("$prog-options", 'capsh-options') {
				$s =~ s/^(\| `\Q$row\E` \|(?:[^|\n]*\|){2}[^|\n]*?)( \|)/$1; `--$OPT`, accepted and ignored$2/m
					or die "recipe_steps: docs/differences.md has no row $row\n";
			}
			return $s;
		});
	});
	# Their uses, against upstream's programs.
	$act->('tests/tools/opt_corpus.cases', "a case of each", sub {
		insert_after('tests/tools/opt_corpus.cases', "# --- capsh",
			     "capsh --$OPT --print #@ capsh-options\n");
		insert_after('tests/tools/opt_corpus.cases', "# --- $prog",
			     "$prog --$OPT tree/plain #@ $prog-options\n");
	});
	# capsh's usage suite, which lists every usage line.
	$act->('tests/cli/capsh_usage.sh', "a case of --$OPT", sub {
		insert_before('tests/cli/capsh_usage.sh', "finish",
			"expect 0 \"\" \"\" \"\$C\" --$OPT\n");
	});
	return @done;
}

sub stale_option {
	my $prog = $PLACE{option}{'<program>'};
	my @stale;
	my $diff = slurp("$tree/docs/differences.md");
	for my $row ("$prog-options", 'capsh-options') {
		push @stale, "docs/differences.md: the row $row does not name --$OPT"
			unless $diff =~ /^\| `\Q$row\E` \|[^\n]*--\Q$OPT\E/m;
	}
	return @stale;
}

# --- a JSON field --------------------------------------------------------
sub apply_json {
	my ($steps) = @_;
	my $prog = $PLACE{json}{'<program>'};
	my @done;
	my $act = actor($steps, \@done);
	$act->("progs/$prog/${prog}_json.c", 'the key recipe_trial in --print\'s object', sub {
		insert_after("progs/$prog/${prog}_json.c", "\tjson_name_field(\"mode\",",
			     "\tprintf(\",\\\"recipe_trial\\\":true\");\n");
	});
	$act->("man/man1/$prog.1", 'recipe_trial among --print\'s keys', sub {
		insert_after("man/man1/$prog.1", ".BR groups ,", ".BR recipe_trial ,\n");
	});
	$act->("tests/cli/${prog}_json.sh", 'a check of the key', sub {
		insert_before("tests/cli/${prog}_json.sh", "finish",
			"grep -q '\"recipe_trial\":true' \"\$T/c.out\" && pass || fail \"--print has no recipe_trial\"\n");
	});
	return @done;
}

# --- a suite -------------------------------------------------------------
sub apply_suite {
	my ($steps) = @_;
	my $name = place('tests/cli/<program>_<aspect>.sh');
	my @done;
	my $step = step_naming($steps, $name);
	if (!$step) {
		return ("DRIFT: no step names $name, which the trial writes: the suite itself");
	}
	spew("$tree/$name", <<'SUITE');
#!/bin/sh
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# A suite the recipe runner (tests/tools/recipes.sh) adds: capsh --decode
# names the bits it is given.
. "${TESTS_DIR:-$(dirname "$0")/..}/lib.sh"
init
expect_lines 0 "0x0000004000000001=cap_chown,cap_perfmon" "" "$BUILD/progs/capsh" --decode=0x4000000001
finish
SUITE
	push @done, "step $step->{n}: $name: a suite in the shape of its neighbours";
	return @done;
}

# ---------------------------------------------------------------------
if ($cmd eq 'apply') {
	my ($check_sh, $state_f) = @rest;
	die "usage: $0 apply RECIPE TREE CHECK_SH STATE\n" unless defined $state_f;
	my @steps = read_recipe("$tree/docs/hacking.md");
	my $checks = '';
	for my $b (map { @{$_->{blocks}} } grep { $_->{text} =~ /^Check\b/ } @steps) {
		$checks .= place($b->{text}) if $b->{lang} eq 'sh';
	}
	die "recipe_steps: \"### $TITLE{$recipe}\" has no \"Check\" step with an sh block\n"
		if $checks eq '';
	my $st = $recipe eq 'capability' ? capability_state() : {};
	my @done = $recipe eq 'capability' ? apply_capability(\@steps, $st)
		: $recipe eq 'option' ? apply_option(\@steps)
		: $recipe eq 'json' ? apply_json(\@steps)
		: apply_suite(\@steps);
	print "$_\n" for @done;
	my %edited = map { m{^step \d+: ([^:]+):} ? ($1 => 1) : () } @done;
	for my $s (@steps) {
		for my $p (sort keys %{$s->{paths}}) {
			next if $edited{$p} || $s->{text} =~ /^Check\b/;
			print "step $s->{n}: $p: named, ",
				-e "$tree/$p" ? "nothing to do here" : "not in the tree", "\n";
		}
	}
	spew($check_sh, "set -e\n$checks");
	spew($state_f, join('', map { "$_=$st->{$_}\n" } sort keys %$st));
	exit 0;
}
if ($cmd eq 'stale') {
	my ($state_f) = @rest;
	my %st = map { /^(\w+)=(.*)$/ ? ($1 => $2) : () } split /\n/, slurp($state_f);
	my @stale = $recipe eq 'capability' ? stale_capability(\%st)
		: $recipe eq 'option' ? stale_option() : ();
	print "STALE: $_\n" for @stale;
	exit(@stale ? 1 : 0);
}
die "usage: $0 apply|stale RECIPE TREE ...\n";
