require_relative '../../../puppet_x/site/string_patch'

Puppet::Functions.create_function(:'site::patch') do
  def patch
    Puppet::Pops::Types::StringConverter.prepend(PuppetX::Site::StringPatch)
  end
end
