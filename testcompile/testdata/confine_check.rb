# Asks Puppet::Confine for the test class of confines Puppet has no class
# for (facts, as providers confine on them) and of one it has, and prints
# the answers and how many times DidYouMean computed spelling suggestions
# for a missing file: TestConfineTest wants Puppet's answers and none.
require 'rspec-puppet'
require 'puppet/confine'

$suggestions = 0
if defined?(DidYouMean::RequirePathChecker)
  DidYouMean::RequirePathChecker.prepend(Module.new do
    def corrections
      $suggestions += 1
      super
    end
  end)
end
answers = %i[operatingsystem osfamily kernel operatingsystem exists].map do |name|
  "#{name}=#{Puppet::Confine.test(name).inspect}"
end
puts "answers: #{answers.join(' ')}"
puts "suggestions: #{$suggestions}"
