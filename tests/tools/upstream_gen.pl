#!/usr/bin/perl
# SPDX-License-Identifier: BSD-3-Clause OR GPL-2.0-only
# The generated half of tests/cli/progs_upstream_diff.sh's corpus: cases
# made by rule, so that no option, bad value or edge escapes for want of
# someone thinking of it.
#
#   perl upstream_gen.pl cases TOP      prints the cases (the .cases syntax)
#
# What they name as ../../ro is built by tests/tools/upstream_fixture.pl.
#
# The rules:
# - every option of setcap, getcap, getpcaps and capsh, as our option
#   tables list them (they hold libcap 2.76's: the usage texts are
#   compared), alone, without its value, with an empty one, misspelt,
#   before and after operands, and in its usual use;
# - every value class for every option that takes a number (setcap -n,
#   capsh's numbers, pids) or a capability: each class (below) for each
#   option, its spellings spread over the options so that each is met;
# - capability text of every form, valid and malformed, duplicates;
# - all 64 capability numbers wherever one is written, read, verified,
#   named, decoded or explained, 41 to 63 being above this kernel's last;
# - files of every kind and every revision and root id of
#   security.capability; a tree whose paths cross PATH_MAX; directories
#   and files of every mode, walked as nobody;
# - standard input empty, short, at and past setcap's 2048 bytes, and
#   unreadable (closed, a directory, write-only);
# - group lists of 0, 1, 99, 100, 101 and 1000 entries (libcap's capsh
#   --print reads 100 at most).
#
# Cost: each command is a process per build, three builds in the plain
# pass, and under ASan one of ours costs some 8 ms. So a command carries
# a whole class where the program goes on after a value (getcap and
# getpcaps after a bad one, capsh and setcap after a good one); a value
# that ends the run gets a command of its own.
#
# A case writes only to scratch files, "s/NAME" (made again, empty, for
# each case that names them; tests/tools/upstream_run.pl), so no case
# changes the fixture of another. "#@ ID" notes name the rows of
# docs/differences.md whose difference is the whole case (a deliberate
# refusal, an option of ours): the value's class decides the note, never
# the outcome, and tests/tools/upstream_compare.pl fails a note on a case
# that does not differ as it fails a difference without one.
use strict;
use warnings;
use File::Basename ();
use File::Spec ();

# ---------------------------------------------------------------------
# Numbers. libcap's programs read them with strtoul() (base 0), which
# skips blanks, takes a sign and stops at the first character that is
# not a digit; ours take a whole, unsigned, in-range number
# (common/number.c). Each class by what strtoul() makes of it:
my %NUMBER = (
	# no number: both refuse (libcap refuses a leading '-' itself); the
	# empty value is each option's own case
	none => [' ', '-1', '+-1', '-0', '-4294967295'],
	# digits, then junk: where libcap checks the end, both refuse
	trail => ['1x', '08', '0x', '1 ', '0x1g', '1.5'],
	# blanks, then '-': strtoul() negates what libcap's '-' test missed
	sign => [' -1', "\t-1", ' -4294967295', ' -2', '  -0', ' -0'],
	# past 32 bits: libcap cuts it, we refuse
	wide => ['4294967296', '0x100000000', '9223372036854775808',
		 '18446744073709551615', '18446744073709551616',
		 '99999999999999999999999'],
	# zero in every spelling both read alike
	zero => ['0', '+0', ' 0', ' +0', '00', '0x0', '0X0'],
	# values both read alike: the edges of 31 and 32 bits, C prefixes
	edge => ['1', '+1', ' 1', '010', '0x10', '0X1F', '2147483647',
		 '2147483648', '4294967294', '4294967295'],
);
my @REFUSED = qw(none trail sign wide);	# a command each

# The class of a text (for values written outside %NUMBER).
sub number_class {
	my ($text) = @_;
	for my $c (keys %NUMBER) {
		return $c if grep { $_ eq $text } @{$NUMBER{$c}};
	}
	return $text =~ /^\d+$/ ? 'edge' : 'none';
}

# " -0" is zero to strtoul(): libcap reads it as 0 (setcap then refuses
# it as it refuses 0; capsh takes it), where we refuse the '-'.
sub is_negated_zero { return $_[0] =~ /^\s+-0+$/; }

# The i-th of a class's spellings, for the option numbered i: each
# option meets every class, and the options between them every spelling.
sub spelling {
	my ($class, $i) = @_;
	my $list = $NUMBER{$class};
	return $list->[$i % @$list];
}

# Capabilities as an option's value. libcap's capsh reads them with
# cap_from_name(): a number is strtoul()'s, junk after it ignored; a name
# ends at a comma, '=', '+', '-' or blank. Ours take a whole name or a
# whole number below 64 (capsh_cap_value()).
my %CAP = (
	# both read these alike (as root they hold, or are simply known)
	same => ['cap_chown', 'CAP_CHOWN', 'Cap_Chown', 'cap_perfmon', '0',
		 '40', '010', '0x26', 'cap_checkpoint_restore'],
	# beyond this kernel, or beyond 64; the first is made the first
	# number private/caps.def leaves unnamed (gen_capsh), so that both
	# still print the same explanation for it
	edge => ['41', '63', '64'],
	# a number with junk: libcap takes the number
	numjunk => ['1x', '08', '1 '],
	# a name with a delimiter after it: libcap takes the name
	namejunk => ['cap_chown,', 'cap_chown,cap_kill', 'cap_chown ',
		     'cap_chown=p'],
	# nothing either reads (a blank first is neither digit nor name)
	unknown => ['cap_bogus', 'chown', '', 'all', '-1', '4294967296',
		    ' cap_chown', 'cap_chownx', ' 1'],
);

# Does libcap take the value (or, for a list option, one of its comma's
# items) where ours refuses it?
sub cap_differs {
	my ($v, $list) = @_;
	my %junk = map { $_ => 1 } @{$CAP{numjunk}}, @{$CAP{namejunk}};
	return scalar grep { $junk{$_} } $list ? split(/,/, $v) : ($v);
}

# Capability text (setcap's operand, capsh --caps): every operator and
# flag, every case, numbers at the edges, duplicates, blanks; then the
# malformed.
my @TEXT_OK = (
	'cap_chown=p', 'cap_chown+p', 'cap_chown=eip', 'cap_chown-p',
	'CAP_CHOWN=p', 'cap_chown,cap_chown=p',
	'cap_chown=p cap_chown=p', 'cap_chown=p cap_chown-p',
	'cap_chown=ep cap_chown-e', 'all=p', 'all=ep', 'ALL=ep', 'all-p',
	'=', '=p', '=ep', 'all=p cap_chown-p', '41=p', '63=p', '0=p 63+p',
	'010=p', '0x26=p', ' cap_chown=p', 'cap_chown=p ',
	"cap_chown=p\tcap_kill=p", "cap_chown=p\ncap_kill=p",
);
# Parsed, then refused on the way to the file (an effective set that is
# neither empty nor P | I; -f lets some through): a command each.
my @TEXT_EFFECTIVE = ('cap_chown=e', 'cap_chown=p cap_kill=ep', '0=e 1=p',
		      'cap_chown+e cap_kill=p');
my @TEXT_BAD = (
	'64=p', '-1=p', '4294967296=p', '18446744073709551616=p', '1x=p',
	'cap_bogus=p', 'cap_chown,=p', ',cap_chown=p', 'cap_chown,,cap_kill=p',
	'cap_chown=pp', 'cap_chown=x', 'cap_chown', 'cap_chown=', '==p', '+p',
	'p', 'cap_chown=p,', 'cap_chown=p=e', 'cap_chown=-p', 'cap_chown+-p',
	'CAP_CHOWN=P', 'cap_chown=P',
	' ', '', "\x01=p", "cap_chown=p\xff",
);

# ---------------------------------------------------------------------
# Output: one case a line. shq() quotes a word for upstream_run.pl's
# simple syntax (and for sh alike).
my @cases;

sub shq {
	my ($w) = @_;
	return $w if length $w && $w =~ /^[A-Za-z0-9_.\/=,:+@%^-][A-Za-z0-9_.\/=,:+@%^!-]*$/;
	return "'$w'" if $w !~ /['\\\x00-\x1f\x7f-\xff]/;
	(my $e = $w) =~ s/([\\'\x00-\x1f\x7f-\xff])/
		$1 eq '\\' ? '\\\\' : $1 eq "'" ? "\\'" : sprintf('\\x%02x', ord $1)/ge;
	return "\$'$e'";
}

# case(\%how, [word...], [word...], ...): commands joined by "&&". how:
# root, nobody, rows => [ID...], stdin => "<PATH", "<&-" or "0>PATH".
sub case {
	my ($how, @cmds) = @_;
	my $line = join(' && ', map { join(' ', map { shq($_) } @$_) } @cmds);
	$line .= " $how->{stdin}" if $how->{stdin};
	my $pre = $how->{nobody} ? 'nobody ' : $how->{root} ? 'root ' : '';
	my @rows = @{$how->{rows} // []};
	$line .= ' #@ ' . join(' ', @rows) if @rows;
	push @cases, $pre . $line;
}

sub heading { push @cases, "# --- $_[0]"; }

# ---------------------------------------------------------------------
# The options. Our tables list libcap's options and ours; these are
# libcap 2.76's. Each of ours has the row that lists it.
my %LIBCAP = (
	setcap => [qw(-r --license -f -h -n -q -v)],
	getcap => [qw(-r -v -h -n -l)],
	getpcaps => [qw(--help -h --usage --verbose --ugly --legacy --iab
			--license)],
	capsh => [qw(--addamb= --cap-uid= --caps= --chroot= --current
		     --decode= --delamb= --drop= --dropped= --explain=
		     --forkfor= --gid= --groups= --has-a= --has-b= --has-ambient
		     --has-i= --has-p= --has-no-new-privs --help -h --iab=
		     --inh= --inmode= --is-uid= --is-gid= --keep= --killit=
		     --license --mode --mode= --modes --no-new-privs --noamb
		     --noenv --print --quiet --secbits= --shell= --strict
		     --suggest= --supports= --uid= --user=)],
);
# The last capability libcap 2.76 names (cap_checkpoint_restore).
my $LIBCAP_LAST = 40;
my %OURS_ROW = (
	setcap => 'setcap-perf', getcap => 'getcap-options',
	getpcaps => 'getpcaps-options', capsh => 'capsh-options',
);

# The options of progs/PROG's table, as tests/tools/opt_table.pl lists
# them ("--name", "--name=" for one that takes a value, "-x").
sub options_of {
	my ($top, $prog) = @_;
	my $src = '';
	for my $f (glob("$top/progs/$prog/*.c")) {
		open(my $fh, '<', $f) or die "cannot read $f: $!\n";
		local $/;
		$src .= <$fh>;
		close $fh;
	}
	my $pid = open(my $out, '-|') // die "fork: $!\n";
	if ($pid == 0) {
		open(my $in, '|-', 'perl', "$top/tests/tools/opt_table.pl")
			or die "opt_table.pl: $!\n";
		print $in $src;
		close $in or exit 1;
		exit 0;
	}
	my @opts = map { chomp; $_ } <$out>;
	close $out or die "tests/tools/opt_table.pl found no table in progs/$prog\n";
	return @opts;
}

# The rows a case using this option of the table needs: none for
# libcap's.
sub rows_of {
	my ($prog, $opt) = @_;
	my %libcap = map { $_ => 1 } @{$LIBCAP{$prog}};
	(my $bare = $opt) =~ s/=$//;
	return () if $libcap{$opt} || $libcap{$bare} || $libcap{"$bare="};
	return ('version-option') if $bare eq '--version';
	return ($OURS_ROW{$prog});
}

# ---------------------------------------------------------------------
sub gen_setcap {
	my ($top) = @_;
	heading('setcap: each option alone, before a pair, after one');
	for my $o (options_of($top, 'setcap')) {
		my @rows = rows_of('setcap', $o);
		my $word = $o eq '--perf-group=' ? '--perf-group=root' : $o;
		my @value = $o eq '-n' ? ('1000') : ();
		case({ rows => [@rows] }, ['setcap', $word]);
		case({ root => 1, rows => [@rows] },
		     ['setcap', $word, @value, 'cap_chown=ep', 's/a'],
		     ['getcap', '-n', 's/a']);
		case({ root => 1, rows => [@rows] },
		     ['setcap', 'cap_chown=ep', 's/a', $word, @value]);
	}
	# Words that are no option: setcap takes them for capability text.
	for my $w ('-', '--', '-x', '-qv', '--lic', '--license=x', '--help',
		   '-h=1', '-n=5') {
		case({}, ['setcap', $w, 's/a']);
	}
	case({ root => 1 }, ['setcap', '-q', '-v', '-f', '-q', 'cap_kill=p', 's/a']);

	heading('setcap -n: every class of number, each spelling');
	for my $class (@REFUSED, 'zero') {
		for my $v ($class eq 'none' ? '' : (), @{$NUMBER{$class}}) {
			# libcap checks the end and a leading '-' and refuses 0,
			# as we do: it differs where it negates or cuts.
			my @rows = $class eq 'wide' ? ('setcap-rootid-range')
				: $class eq 'sign' && !is_negated_zero($v)
				? ('setcap-rootid-sign') : ();
			case({ rows => [@rows] }, ['setcap', '-n', $v,
						   'cap_chown=ep', 's/n']);
		}
	}
	# Those both take, written and read back in one go; the kernel
	# refuses (uid_t)-1 as a root id, so that one alone.
	my @edge = grep { $_ ne '4294967295' } @{$NUMBER{edge}};
	case({ root => 1 }, ['setcap', '-n', '4294967295', 'cap_chown=ep', 's/n']);
	case({ root => 1 },
	     ['setcap', map { ('-n', $edge[$_], 'cap_chown=ep', "s/n$_") } 0 .. $#edge],
	     ['getcap', '-n', map { "s/n$_" } 0 .. $#edge],
	     ['setcap', '-v', map { ('-n', $edge[$_], 'cap_chown=ep', "s/n$_") } 0 .. $#edge]);
	case({ root => 1 }, ['setcap', '-n', '1', '-n', '2', 'cap_chown=ep',
			     's/n'], ['getcap', '-n', 's/n'],
	     ['setcap', '-n', '3', '-v', 'cap_chown=ep', 's/n']);

	heading('setcap: all 64 capability numbers written, read, verified');
	for my $form ('=p', '=eip', '+i') {
		my @pairs = map { ("$_$form", "s/c$_") } 0 .. 63;
		case({ root => 1 }, ['setcap', @pairs],
		     ['getcap', '-n', map { "s/c$_" } 0 .. 63],
		     ['setcap', '-v', @pairs]);
	}
	# Every name libcap 2.76 knows (0 to 40): one past them is a name
	# 2.76 refuses, which the numbers above already write.
	my @names = (cap_names($top))[0 .. $LIBCAP_LAST];
	case({ root => 1 }, ['setcap', (map { ("$_=ep", "s/$_") } @names),
			     join(',', map { uc } @names) . '+ip', 's/names',
			     join(',', 0 .. 63) . '=p', 's/all'],
	     ['getcap', (map { "s/$_" } @names), 's/names', 's/all']);

	heading('setcap: capability text, valid and malformed');
	my @ok = map { ($TEXT_OK[$_], "s/t$_") } 0 .. $#TEXT_OK;
	my @written = map { "s/t$_" } 0 .. $#TEXT_OK;
	case({ root => 1 }, ['setcap', @ok], ['getcap', @written],
	     ['setcap', '-v', @ok]);
	case({ root => 1 }, ['setcap', '-q', '-f', @ok], ['getcap', @written]);
	for my $t (@TEXT_EFFECTIVE) {
		case({ root => 1 }, ['setcap', $t, 's/t']);
		case({ root => 1 }, ['setcap', '-f', $t, 's/t'], ['getcap', 's/t']);
	}
	for my $t (@TEXT_BAD) {
		case({}, ['setcap', $t, 's/t']);
	}

	heading('setcap: files of each kind');
	# What is not a regular file from ../../ro, which setcap refuses
	# before writing; regular files in the scratch directory, since the
	# three builds share ../../ro. Not the FIFO: Debian's 2.75 and 2.78
	# builds block in open() on one, where 2.76 refused it at once
	# (docs/differences.md, "Not differences"); setcap_race checks that
	# ours refuses it.
	for my $f ((grep { !m{/(file|empty|fifo)$} } kinds()), '../w/s/k') {
		case({ root => 1 }, ['setcap', 'cap_chown=p', $f], ['getcap', 's/k']);
		case({ root => 1 }, ['setcap', '-v', 'cap_net_raw=ep', $f]);
	}
	case({ root => 1 }, ['setcap', '-r', 's/r']);
	case({ root => 1 }, ['setcap', '-f', '-r', 's/r', '-r', 's/r']);
	case({ root => 1 }, ['setcap', 'cap_chown=p', 's/r', '-r', 's/r'],
	     ['getcap', '-v', 's/r'], ['setcap', '-v', '-r', 's/r']);

	heading('setcap -: standard input empty, short, long, unreadable');
	for my $in (stdin_files()) {
		case({ root => 1, stdin => "<../../ro/in/$in" },
		     ['setcap', '-', 's/i'], ['getcap', 's/i']);
	}
	case({ root => 1, stdin => '<../../ro/in/2049' }, ['setcap', '-q', '-', 's/i']);
	case({ root => 1, stdin => '<../../ro/in/2048' },
	     ['setcap', '-q', '-', 's/i', '-', 's/j']);
	for my $in ('<&-', '<../../ro', '0>/dev/null') {
		case({ stdin => $in }, ['setcap', '-', 's/i']);
		case({ stdin => $in }, ['setcap', '-q', '-v', '-', 's/i']);
	}
	heading('setcap as nobody: no CAP_SETFCAP');
	case({ nobody => 1 }, ['setcap', 'cap_chown=p', 's/a']);
	case({ nobody => 1 }, ['setcap', '-v', 'cap_chown=p', 's/a', '-r', 's/a']);
}

sub gen_getcap {
	my ($top) = @_;
	my @files = map { "../../ro/caps/$_" } caps_files();
	heading('getcap: each option alone, with operands, after them');
	for my $o (options_of($top, 'getcap'), '-Q', '--', '-', '-rnv',
		   '-lh', '-hl', '--bogus', '--jso', '-r=1') {
		# getopt_long() takes "--jso" for --json, ours.
		my @rows = $o eq '--jso' ? ('getcap-options')
			: $o =~ /^(-Q|--|-|-rnv|-lh|-hl|--bogus|-r=1)$/ ? ()
			: rows_of('getcap', $o);
		my $word = $o =~ /=$/ ? $o . '../../ro/kinds' : $o;
		case({ rows => [@rows] }, ['getcap', $word]);
		case({ rows => [@rows] }, ['getcap', @files[0, 1], $word,
					   kinds()]);
	}
	heading('getcap: every revision and root id, every kind of file');
	for my $o ([], ['-n'], ['-v'], ['-nv']) {
		case({}, ['getcap', @$o, @files, kinds()]);
	}
	case({}, ['getcap', '-r', '-nv', '../../ro/caps', '../../ro/kinds']);
	heading('getcap -r: a tree past PATH_MAX');
	case({}, ['getcap', '-r', '../../ro/deep']);
	case({}, ['getcap', '-rvn', '../../ro/deep']);
	case({}, ['getcap', '-v', deep_files()]);
	heading('getcap as nobody: directories and files it may not read');
	my @ur = map { "../../ro/ur/$_" } unreadable();
	case({ nobody => 1 }, ['getcap', '-r', '../../ro/ur']);
	case({ nobody => 1 }, ['getcap', '-rv', '../../ro/ur', @ur]);
	case({ nobody => 1 }, ['getcap', '-v', @ur, map { "$_/t" } @ur]);
	case({ root => 1 }, ['getcap', '-rv', '../../ro/ur']);
}

sub gen_getpcaps {
	my ($top) = @_;
	heading('getpcaps: each option alone, before and after a pid');
	for my $o (options_of($top, 'getpcaps'), '-', '--', '-x', '--bogus',
		   '--verbos', '--iab=1') {
		my @rows = $o =~ /^(-|--|-x|--bogus|--verbos|--iab=1)$/ ? ()
			: rows_of('getpcaps', $o);
		case({ rows => [@rows] }, ['getpcaps', $o]);
		case({ rows => [@rows] }, ['getpcaps', '0', $o, '1']);
	}
	heading('getpcaps: every number as a pid, in each format');
	my @pids = map { @{$NUMBER{$_}} } sort keys %NUMBER;
	for my $o ([], ['--verbose'], ['--legacy'], ['--iab'],
		   ['--iab', '--verbose']) {
		case({}, ['getpcaps', @$o, @pids]);
	}
	case({ nobody => 1 }, ['getpcaps', '0', '1', '--iab', '0', '1']);
}

# capsh's options that take a number, with what shows the value's effect.
my @CAPSH_NUMBERS = (
	['--uid=', ['--print']], ['--gid=', ['--print']],
	['--cap-uid=', ['--print']], ['--secbits=', ['--print']],
	['--keep=', ['--print']], ['--is-uid=', []], ['--is-gid=', []],
	['--forkfor=', ['--killit=9']], ['--killit=', []],
);

# capsh's options that take capabilities; before: what makes the names of
# %CAP{same} hold, so that one command takes them all.
my $HELD = 'cap_chown,cap_dac_override,cap_kill,cap_setpcap,cap_perfmon,cap_checkpoint_restore';
my @CAPSH_CAPS = (
	['--has-p=', [], []], ['--has-i=', ["--caps=$HELD=eip"], []],
	['--has-a=', ["--caps=$HELD=eip", "--addamb=$HELD"], []],
	['--has-b=', [], []], ['--dropped=', ["--drop=$HELD"], []],
	['--supports=', [], []], ['--explain=', [], ['capsh-explain-text']],
	['--drop=', [], []], ['--addamb=', ["--caps=$HELD=eip"], []],
	['--delamb=', [], []],
);

sub gen_capsh {
	my ($top) = @_;
	my @opts = options_of($top, 'capsh');
	$CAP{edge}[0] = scalar(() = cap_names($top));
	heading('capsh: each option alone, without its value, misspelt');
	# libcap's options without a value that carry on, in one command
	# (one of ours would make the whole command a difference: each is
	# run alone, below). --no-new-privs first: --has-no-new-privs holds
	# after it.
	my @flags = sort { ($b eq '--no-new-privs') <=> ($a eq '--no-new-privs') }
		grep { !/=$/ && !/^(--help|-h|--license|--quiet)$/ && !rows_of('capsh', $_) } @opts;
	case({ root => 1 }, ['capsh', '--quiet', @flags, '--print']);
	for my $o (@opts, '--bogus', '-x', '--prin', '--', '-+', '==', '=+') {
		my @rows = $o =~ /^(--bogus|-x|--prin|--|-\+|==|=\+)$/ ? ()
			: rows_of('capsh', $o);
		if ($o =~ /^(.*)=$/) {
			my $bare = $1;
			case({}, ['capsh', $bare]);
			# An empty value: --decode reads it as 0 where we
			# refuse it; --suggest= matches every description.
			my @empty = $o eq '--decode=' ? ('capsh-numbers')
				: $o eq '--suggest=' ? ('capsh-explain-text') : ();
			case({ root => 1, rows => [@empty] }, ['capsh', $o]);
		} elsif ($o =~ /^(--|-\+|==|=\+)$/) {
			case({}, ['capsh', '--shell=/bin/false', $o]);
		} else {
			case({ rows => [@rows] }, ['capsh', $o])
				if @rows || $o =~ /^(--help|-h|--license|--bogus|-x|--prin)$/;
			# A value to an option that takes none: unknown to
			# both, ours or not.
			case({}, ['capsh', "$o=x"]) unless $o eq '--noamb';
		}
	}
	case({}, ['capsh', '--noamb=x', '--noambiguous']);

	heading('capsh: every class of number for every option that takes one');
	for my $i (0 .. $#CAPSH_NUMBERS) {
		my ($o, $after) = @{$CAPSH_NUMBERS[$i]};
		for my $class (@REFUSED) {
			# Both refuse "none"; a checked end refuses "trail";
			# libcap negates after blanks (zero too, which it takes)
			# and cuts what is past 32 bits, where we refuse.
			for my $v (spelling($class, $i)) {
				my @rows = $class =~ /^(sign|wide)$/
					? ('capsh-numbers') : ();
				my @pre = $o eq '--killit=' ? ('--forkfor=1') : ();
				case({ root => 1, rows => [@rows] },
				     ['capsh', @pre, $o . $v, @$after]);
			}
		}
		# Zero in every spelling, and the edges, each followed by what
		# shows it: one command while they hold.
		my @pre = $o eq '--killit=' ? ('--forkfor=1') : ();
		if ($o =~ /^--(uid|gid|cap-uid|secbits|keep|is-uid|is-gid)=$/) {
			case({ root => 1 }, ['capsh', map { ($o . $_, @$after) }
					     @{$NUMBER{zero}}]);
		}
		for my $v (spelling('edge', 2 * $i), spelling('edge', 2 * $i + 1)) {
			case({ root => 1 }, ['capsh', @pre, $o . $v, @$after]);
		}
	}

	heading('capsh --decode: every class, and each of 64 bits');
	for my $class (@REFUSED) {
		for my $v (@{$NUMBER{$class}}[0 .. 2]) {
			# Ours read the whole text as hexadecimal (blanks and
			# a '+' first, as strtoull() allows), up to 64 bits;
			# libcap's strtoull() takes any prefix, negates after
			# a '-' and saturates.
			my $t = $v =~ s/^\s*\+?//r;
			my $whole = $t =~ /^(?:0[xX])?0*([0-9a-fA-F]+)$/ &&
				length($1) <= 16;
			case({ rows => [$whole ? () : 'capsh-numbers'] },
			     ['capsh', "--decode=$v"]);
		}
	}
	case({}, ['capsh', (map { "--decode=$_" } @{$NUMBER{zero}}),
		  '--decode=3', '--decode= 3', '--decode=+3', '--decode=0X1f',
		  '--decode=ffffffffffffffff', '--decode=0000000000000000001',
		  '--decode=1ffffffffff', '--decode=ffffffff00000000']);
	case({}, ['capsh', map { sprintf('--decode=%x', 1 << $_) } 0 .. 63]);

	heading('capsh: every class of capability for every option that takes one');
	for my $i (0 .. $#CAPSH_CAPS) {
		my ($o, $before, $rows) = @{$CAPSH_CAPS[$i]};
		my $show = $o =~ /^--(drop|addamb|delamb)=$/ ? ['--print'] : [];
		case({ root => 1, rows => $rows },
		     ['capsh', @$before, (map { $o . $_ } @{$CAP{same}}), @$show]);
		for my $class (qw(edge numjunk namejunk unknown)) {
			my $list = $CAP{$class};
			for my $v ($list->[$i % @$list]) {
				my $list = $o =~ /^--(drop|addamb|delamb)=$/;
				my @r = cap_differs($v, $list) ? ('capsh-cap-junk') : ();
				case({ root => 1, rows => [@r] },
				     ['capsh', @$before, $o . $v, @$show]);
			}
		}
	}

	heading('capsh: all 64 capability numbers');
	# Our explanations are our own text for every capability
	# private/caps.def names; past them, both print the same lines.
	my $named = () = cap_names($top);
	case({ rows => ['capsh-explain-text'] },
	     ['capsh', map { "--explain=$_" } 0 .. $named - 1]);
	case({}, ['capsh', map { "--explain=$_" } $named .. 64]);
	# What this kernel (6.18) supports, then two it does not.
	case({}, ['capsh', map { "--supports=$_" } 0 .. 40]);
	case({}, ['capsh', "--supports=$_"]) for 41, 63;
	case({ root => 1 }, ['capsh', '--drop=' . join(',', 0 .. 63), '--print']);
	case({ root => 1 }, ['capsh', '--caps=' . join(',', 0 .. 63) . '=eip',
			     '--print']);
	case({ root => 1 }, ['capsh', '--iab=' . join(',', map { "!$_" } 0 .. 63),
			     '--print']);

	heading('capsh: capability text in --caps and --iab');
	# Each --caps sets the whole state and may give up what the next one
	# needs: a command each. The text goes to cap_from_text() as setcap's
	# does, so every fourth of setcap's texts is enough here.
	for my $i (0 .. 7) {
		case({ root => 1 }, ['capsh', '--caps=' . $TEXT_OK[$i * 4 % @TEXT_OK],
				     '--current']);
		case({ root => 1 }, ['capsh', '--caps=' . $TEXT_BAD[$i * 4 % @TEXT_BAD]]);
	}
	# Raising first, dropping from the bounding set last: a dropped
	# capability cannot be raised again.
	case({ root => 1 }, ['capsh', (map { ("--iab=$_", '--current') }
		'cap_chown', '^cap_chown', 'cap_chown,cap_chown', '',
		'cap_chown,', '!cap_kill', '^cap_chown,!cap_kill',
		'!cap_chown,cap_chown')]);
	for my $t ('%cap_chown', 'cap_bogus', ',', '64', 'all', '!all', '!41',
		   '^63') {
		case({ root => 1 }, ['capsh', "--iab=$t", '--current']);
	}

	heading('capsh: groups, up to past 100 (--print read 100 at most); names; numbers');
	case({ root => 1 }, ['capsh', map { ('--groups=' . join(',', 1 .. $_),
					     '--print') } 0, 1, 99, 100, 101, 1000]);
	case({ root => 1 }, ['capsh', (map { ("--groups=$_", '--print') }
		'0,0', 'root,root', '0,', '00,0x0', '4294967294')]);
	for my $g (',', '0,,1', 'no-such-group-zz', '+0', '1x', '08', ' 1', ' -1',
		   '4294967295', '4294967296') {
		# An entry that starts with a digit is a number to libcap,
		# read up to the first other character, and cut.
		my @rows = grep { /^\d/ && (number_class($_) eq 'trail' ||
					    number_class($_) eq 'wide') }
			split /,/, $g;
		case({ root => 1, rows => [@rows ? 'capsh-numbers' : ()] },
		     ['capsh', "--groups=$g", '--print']);
	}
	case({ root => 1 }, ['capsh', '--user=root', '--print', '--noenv',
			     '--user=nobody', '--print']);
	case({ root => 1 }, ['capsh', '--user=no-such-user-zz']);
	case({ root => 1 }, ['capsh', '--user=']);

	heading('capsh: modes');
	for my $m (qw(HYBRID PURE1E_INIT PURE1E NOPRIV)) {
		case({ root => 1 }, ['capsh', "--mode=$m", '--mode', "--inmode=$m",
				     '--print']);
	}
	for my $m ('', 'nopriv', 'UNCERTAIN', ' HYBRID') {
		case({ root => 1 }, ['capsh', "--mode=$m"]);
		case({}, ['capsh', "--inmode=$m"]);
	}

	heading('capsh as nobody');
	case({ nobody => 1 }, ['capsh', '--print', '--current', '--has-p=cap_chown']);
	case({ nobody => 1 }, ['capsh', '--caps=cap_chown=ep']);
	case({ nobody => 1 }, ['capsh', '--drop=cap_chown']);
	case({ nobody => 1 }, ['capsh', '--uid=0']);
}

# The capability names, from the one table of them.
sub cap_names {
	my ($top) = @_;
	open(my $fh, '<', "$top/private/caps.def") or die "caps.def: $!\n";
	my @names;
	while (<$fh>) {
		push @names, "cap_$1" if /^CAP_FACT\(\d+,\s*\w+,\s*(\w+)/;
	}
	close $fh;
	return @names;
}

# What the cases name in the fixture (kinds(), caps_files(), unreadable(),
# deep_files(), stdin_files()) comes from the script that builds it.
require(File::Spec->rel2abs(File::Basename::dirname(__FILE__)) .
	'/upstream_fixture.pl');

my ($mode, $top) = @ARGV;
die "usage: $0 cases TOP\n" unless ($mode // '') eq 'cases' && defined $top;
gen_setcap($top);
gen_getcap($top);
gen_getpcaps($top);
gen_capsh($top);
print "$_\n" for @cases;
