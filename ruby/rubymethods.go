// Code generated from Ruby 3.1 reflection (instance_methods, with json and
// yaml loaded as under Puppet). DO NOT EDIT.

package ruby

import "strings"

// rubyHasMethod reports whether instances of a core class have a public
// method. A call to a method Ruby lacks raises NoMethodError as in Ruby; a
// real method this package does not implement is reported as unsupported.
func rubyHasMethod(class, name string) bool {
	var list string
	switch class {
	case "String":
		list = "% * + +@ -@ < << <= > >= [] []= ascii_only? b between? bytes bytesize byteslice capitalize capitalize! casecmp casecmp? center chars chomp chomp! chop chop! chr clamp clear codepoints concat count crypt delete delete! delete_prefix delete_prefix! delete_suffix delete_suffix! downcase downcase! dump each_byte each_char each_codepoint each_grapheme_cluster each_line empty? encode encode! encoding end_with? force_encoding getbyte grapheme_clusters gsub gsub! hex include? index insert intern length lines ljust lstrip lstrip! match match? next next! oct ord partition prepend replace reverse reverse! rindex rjust rpartition rstrip rstrip! scan scrub scrub! setbyte size slice slice! split squeeze squeeze! start_with? strip strip! sub sub! succ succ! sum swapcase swapcase! to_c to_f to_i to_json_raw to_json_raw_object to_r to_str to_sym tr tr! tr_s tr_s! undump unicode_normalize unicode_normalize! unicode_normalized? unpack unpack1 upcase upcase! upto valid_encoding?"
	case "Array":
		list = "& * + - << [] []= all? any? append assoc at bsearch bsearch_index chain chunk chunk_while clear collect collect! collect_concat combination compact compact! concat count cycle deconstruct delete delete_at delete_if detect difference dig drop drop_while each each_cons each_entry each_index each_slice each_with_index each_with_object empty? entries fetch fill filter filter! filter_map find find_all find_index first flat_map flatten flatten! grep grep_v group_by include? index inject insert intersect? intersection join keep_if last lazy length map map! max max_by member? min min_by minmax minmax_by none? one? pack partition permutation pop prepend product push rassoc reduce reject reject! repeated_combination repeated_permutation replace reverse reverse! reverse_each rindex rotate rotate! sample select select! shift shuffle shuffle! size slice slice! slice_after slice_before slice_when sort sort! sort_by sort_by! sum take take_while tally to_a to_ary to_h transpose union uniq uniq! unshift values_at zip |"
	case "Hash":
		list = "< <= > >= [] []= all? any? assoc chain chunk chunk_while clear collect collect_concat compact compact! compare_by_identity compare_by_identity? count cycle deconstruct_keys default default= default_proc default_proc= delete delete_if detect dig drop drop_while each each_cons each_entry each_key each_pair each_slice each_value each_with_index each_with_object empty? entries except fetch fetch_values filter filter! filter_map find find_all find_index first flat_map flatten grep grep_v group_by has_key? has_value? include? inject invert keep_if key key? keys lazy length map max max_by member? merge merge! min min_by minmax minmax_by none? one? partition rassoc reduce rehash reject reject! replace reverse_each select select! shift size slice slice_after slice_before slice_when sort sort_by store sum take take_while tally to_a to_h to_hash to_proc transform_keys transform_keys! transform_values transform_values! uniq update value? values values_at zip"
	case "Integer":
		list = "% & * ** + +@ - -@ / < << <= > >= >> [] ^ abs abs2 allbits? angle anybits? arg between? bit_length ceil chr clamp coerce conj conjugate denominator digits div divmod downto even? fdiv finite? floor gcd gcdlcm i imag imaginary infinite? integer? lcm magnitude modulo negative? next nobits? nonzero? numerator odd? ord phase polar positive? pow pred quo rationalize real real? rect rectangular remainder round singleton_method_added size step succ times to_c to_f to_i to_int to_r truncate upto zero? | ~"
	case "Float":
		list = "% * ** + +@ - -@ / < <= > >= abs abs2 angle arg between? ceil clamp coerce conj conjugate denominator div divmod fdiv finite? floor i imag imaginary infinite? integer? magnitude modulo nan? negative? next_float nonzero? numerator phase polar positive? prev_float quo rationalize real real? rect rectangular remainder round singleton_method_added step to_c to_f to_i to_int to_r truncate zero?"
	case "NilClass":
		list = "& ^ rationalize to_a to_c to_f to_h to_i to_r |"
	case "Symbol":
		list = "< <= > >= [] between? capitalize casecmp casecmp? clamp downcase empty? encoding end_with? id2name intern length match match? name next size slice start_with? succ swapcase to_proc to_sym upcase"
	case "TrueClass":
		list = "& ^ |"
	case "FalseClass":
		list = "& ^ |"
	case "Range":
		list = "% all? any? begin bsearch chain chunk chunk_while collect collect_concat compact count cover? cycle detect drop drop_while each each_cons each_entry each_slice each_with_index each_with_object end entries exclude_end? filter filter_map find find_all find_index first flat_map grep grep_v group_by include? inject last lazy map max max_by member? min min_by minmax minmax_by none? one? partition reduce reject reverse_each select size slice_after slice_before slice_when sort sort_by step sum take take_while tally to_a to_h uniq zip"
	case "Regexp":
		list = "casefold? encoding fixed_encoding? match match? named_captures names options source ~"
	case "MatchData":
		list = "[] begin captures end length match match_length named_captures names offset post_match pre_match regexp size string to_a values_at"
	}
	const object = "! != !~ <=> == === =~ __id__ __send__ class clone define_singleton_method display dup enum_for eql? equal? extend freeze frozen? hash inspect instance_eval instance_exec instance_of? instance_variable_defined? instance_variable_get instance_variable_set instance_variables is_a? itself kind_of? method methods nil? object_id private_methods protected_methods public_method public_methods public_send remove_instance_variable respond_to? send singleton_class singleton_method singleton_methods taint tainted? tap then to_enum to_json to_s to_yaml trust untaint untrust untrusted? yield_self"
	// Puppet's library, loaded where templates run, adds Object#to_pson.
	const puppet = "to_pson"
	return strings.Contains(" "+list+" "+object+" "+puppet+" ", " "+name+" ")
}
